import Foundation
public import NetworkService
public import TokenStore

/// The session engine: it supplies the server and a working access token to every call,
/// keeps the session in a ``TokenStore``, and refreshes it when needed, for any server
/// described by its ``Configuration``.
///
/// ```swift
/// let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase(passphrase))
/// let server = try Server(baseURL: "https://auth.example.com")
/// let oauth = OAuth2Client(tokenEndpoint: "/o/token/", clientID: "cli")
/// let service = SessionService(server: server, tokenStore: store, configuration: .oauth2(oauth))
/// try await service.startSession(tokens: try await oauth.passwordGrant(username: "kim", password: password, server: server),
///                                accountID: "kim")
/// let me: Me = try await service.request { server, token in
///     try await server.send(MeEndpoint(), accessToken: token)
/// }
/// ```
///
/// ``request(handler:)`` follows the session rules (docs/DESIGN.md §3):
/// 1. an access token that expires within the margin of ``Configuration/refreshTiming`` (the
///    time a refresh takes, with room to spare, at most a tenth of its lifetime) is refreshed
///    before the call;
/// 2. a call that fails with an authentication failure (under
///    ``Configuration/authenticationFailurePolicy``: a 401, a 403 whose challenge says
///    `invalid_token`, a bare 403 only when the policy opts in) is retried once after a refresh;
///    a second failure goes to the caller (at most one refresh per call, never a loop);
/// 3. refreshes are single-flight in the process and run inside the store's cross-process
///    exclusive section, which re-reads the store first: if another process already replaced
///    the failed token, that one is used and the server is not called;
/// 4. the new credentials (with the rotated refresh token) are saved before the new access
///    token is used;
/// 5. the server rejecting the refresh token ends the session (store cleared, `signedOut`
///    event, ``SessionError/Kind/sessionEnded``), and so does any other 4xx from the refresh
///    call except 408 and 429, whatever the rule says (``RefreshFailureRule/refusedRequest``:
///    repeating the request cannot succeed); any other refresh failure keeps the credentials
///    and throws ``SessionError/Kind/refreshFailed`` (transient). When the store
///    cannot be cleared (a database that is down), the call throws
///    ``SessionError/Kind/sessionEndedCredentialsNotRemoved`` instead, and the service
///    remembers those credentials as dead: they are never presented again, `signedOut` is not
///    sent again, and later calls retry the removal;
/// 6. a refresh that finishes after a sign-out or another sign-in writes nothing;
/// 7. a loop (the server refusing fresh tokens before they were due) is stopped by the
///    ``RefreshWindow`` with ``SessionError/Kind/refreshLimitExceeded``; refreshes of tokens
///    that were due never count. A bare 403 (opted in) the window refuses to refresh for
///    reaches the caller as the server's 403 (a permission refusal, most likely).
///
/// The engine serves any server through its ``Configuration``, which names the refresh call:
/// presets for OAuth 2.0 (``Configuration/oauth2(_:)``) and a JSON server described by field
/// names (``Configuration/json(_:revoker:)``), or a ``TokenRefresher`` of your own.
///
/// There is no shared instance: make one service per account and server, and use it from
/// any task or actor.
public final class SessionService: Sendable {
    /// Where the API lives.
    public let server: Server
    /// Where the session's credentials are kept.
    public let tokenStore: any TokenStore
    /// How the session is kept alive.
    public let configuration: Configuration

    let coordinator: SessionCoordinator
    let broadcaster = SessionEventBroadcaster()
    /// The last access token the server accepted (a call with it got an answer other than an
    /// authentication failure): the refresh window's evidence that a refresh was explained.
    private let acceptedAccessToken = LockedValue<String?>(nil)
    /// How long a refresh takes here, smoothed (``RefreshTiming/smoothedDuration(_:adding:)``);
    /// `nil` before the first.
    private let refreshDuration = LockedValue<TimeInterval?>(nil)
    /// Rotated credentials the store could not save (a full disk, say): the server has already
    /// retired the stored refresh token, so they are kept in memory for this process, used for
    /// every call while the store still holds what they replaced, and saved again on the next
    /// call until the store takes them.
    let unsaved = LockedValue<UnsavedCredentials?>(nil)
    /// The stored credentials of a session that ended here (the server rejected the refresh
    /// token) but that the store could not remove: known by a fingerprint of their refresh
    /// token, never presented to the server again, removed by the next call that can.
    let endedCredentials = LockedValue<EndedCredentials?>(nil)
    /// Rotated credentials a refresh got after a sign-out or sign-in had moved on (not saved,
    /// by rule 6): a sign-out waiting for the store revokes these, the live ones, instead of
    /// the stored ones the server already retired.
    let overtakenRotation = LockedValue<UnsavedCredentials?>(nil)

    /// Creates a service. Nothing is read or sent until the first call.
    /// - Parameters:
    ///   - server: Where the API lives; ``Configuration/errorFormat``, when set, replaces its error format.
    ///   - tokenStore: Where the session's credentials are kept.
    ///   - configuration: How the session is kept alive: the refresh call and the rest.
    public init(server: Server, tokenStore: any TokenStore, configuration: Configuration) {
        var server = server
        if let errorFormat = configuration.errorFormat { server.errorFormat = errorFormat }
        self.server = server
        self.tokenStore = tokenStore
        self.configuration = configuration
        self.coordinator = SessionCoordinator(window: configuration.refreshWindow)
    }

    /// A stream of this service's session events from now on. Each call makes a new
    /// subscriber; drop the stream (or cancel the task iterating it) to unsubscribe.
    public func events() -> AsyncStream<SessionEvent> {
        broadcaster.subscribe()
    }

    /// Calls `handler` with the server and a working access token, refreshing and retrying
    /// as described above.
    ///
    /// - Throws: ``SessionError`` when no working token can be had (for a session the server
    ///   ended whose credentials the store could not remove yet,
    ///   ``SessionError/Kind/sessionEndedCredentialsNotRemoved``, with the store's error as
    ///   ``SessionError/underlying``); ``TokenStoreError`` when the store cannot be read;
    ///   otherwise whatever `handler` throws (a `NetworkError`).
    public func request<T: Sendable>(handler: (Server, AccessToken) async throws -> T) async throws -> T {
        guard var credentials = try await currentCredentials() else {
            throw SessionError(.notSignedIn)
        }
        var refreshed = false
        if isDue(credentials, at: configuration.now()) {
            do {
                credentials = try await refresh(after: credentials)
                refreshed = true
            } catch let error as SessionError where error.kind == .refreshFailed || error.kind == .refreshLimitExceeded {
                // Refreshing ahead failed for a reason that may pass, but the token has not
                // expired yet: use it; a 401 later refreshes again.
                guard let expiresAt = credentials.accessTokenExpiresAt, expiresAt > configuration.now() else { throw error }
            } catch let error as TokenStoreError where error.isTransient || error.kind == .lockFailed {
                // The same when the store's exclusive section could not be had for a moment (a
                // database restarting, another holder past the lock timeout).
                guard let expiresAt = credentials.accessTokenExpiresAt, expiresAt > configuration.now() else { throw error }
            }
        }
        do {
            return try await call(handler, with: credentials)
        } catch let error as NetworkError where !refreshed && error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
            do {
                credentials = try await refresh(after: credentials)
            } catch let limit as SessionError where limit.kind == .refreshLimitExceeded
                        && error.statusCode == 403 && !error.isAuthenticationFailure {
                // A bare 403 (counted only because the policy opts in) on a token that was not
                // due, again and again: a permission refusal far more likely than a loop of
                // expired tokens; the caller gets the server's answer.
                throw error
            }
            return try await call(handler, with: credentials)
        }
    }

    /// Calls `handler` with the access token in `credentials` and notes whether the server accepted it.
    private func call<T>(_ handler: (Server, AccessToken) async throws -> T, with credentials: Credentials) async throws -> T {
        do {
            let result = try await handler(server, AccessToken(credentials.accessToken))
            noteAccepted(credentials.accessToken)
            return result
        } catch let error as NetworkError where [403, 404, 409, 422].contains(error.statusCode ?? 0)
                    && error.serverErrorCode != nil
                    && !error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
            // A contract error such as 404 or 403 from the API itself got past authentication;
            // a gateway's 5xx, a 429 or a bare 404 says nothing about the token, and a 403 that
            // counts as an authentication failure (`invalid_token`, or opted in) refused it.
            noteAccepted(credentials.accessToken)
            throw error
        }
    }

    /// Whether `credentials` should be refreshed before a call at `now`: the access token
    /// expires within the margin of ``Configuration/refreshTiming`` (or already has).
    func isDue(_ credentials: Credentials, at now: Date) -> Bool {
        var lifetime: TimeInterval?
        if let expiresAt = credentials.accessTokenExpiresAt, let issuedAt = credentials.accessTokenIssuedAt {
            lifetime = expiresAt.timeIntervalSince(issuedAt)
        }
        let margin = configuration.refreshTiming.margin(
            lifetime: lifetime, refreshDuration: refreshDuration.withLock { $0 }, leeway: configuration.refreshLeeway)
        return credentials.accessTokenExpires(within: margin, of: now)
    }

    private func noteAccepted(_ token: String) {
        acceptedAccessToken.withLock { if $0 != token { $0 = token } }
    }

    /// The stored credentials, or the rotated ones the store could not save yet (which are
    /// then saved again: once the store takes them, it is the truth again). Never those of a
    /// session that ended here: those are removed (or the call fails saying they could not be).
    private func currentCredentials() async throws -> Credentials? {
        guard let entry = unsaved.withLock({ $0 }) else {
            return try await removingEndedCredentials(try await tokenStore.load())
        }
        do {
            try await tokenStore.withExclusiveAccess { [tokenStore] in
                // Saved only over what they replaced: if the store moved on (another program
                // signed out, in, or refreshed), its session wins and these are dropped.
                guard try await tokenStore.load()?.refreshToken == entry.replaced.refreshToken else { return }
                try await tokenStore.save(entry.renewed)
            }
        } catch {
            // Still not saved: keep working with them; the failure was reported.
            if unsaved.withLock({ $0 }) == entry { return entry.renewed }
        }
        unsaved.withLock { if $0 == entry { $0 = nil } }
        return try await removingEndedCredentials(try await tokenStore.load())
    }

    /// Starts a new session generation (sign-in, sign-out): makes a refresh in flight write
    /// nothing, then forgets unsaved credentials.
    func startNewGeneration() async {
        await coordinator.startNewGeneration()
        unsaved.withLock { $0 = nil }
    }

    /// New credentials to replace `failed`: from the refresh in flight, from the store when
    /// another writer already replaced them, or from the server.
    private func refresh(after failed: Credentials) async throws -> Credentials {
        do {
            return try await coordinator.refresh { [self] generation in
                try await tokenStore.withExclusiveAccess {
                    try await refreshInsideExclusiveSection(after: failed, generation: generation)
                }
            }
        } catch is CancellationError where !Task.isCancelled {
            // The shared refresh was cancelled by a sign-in or sign-out of this service,
            // not by this caller: the session this call was made for is over.
            throw SessionError(.sessionChanged)
        }
    }

    private func refreshInsideExclusiveSection(after failed: Credentials, generation: Int) async throws -> Credentials {
        // Unsaved rotated credentials come first while the store still holds what they
        // replaced: the stored refresh token is already retired.
        let fromStore = try await tokenStore.load()
        if let fromStore, let ended = endedSession(of: fromStore) {
            // The server already rejected these (this call loaded them before that was known):
            // never present them again; remove them, and end the call without a second event.
            try await removeEndedCredentialsInsideExclusiveSection(ended)
            throw SessionError(.sessionEnded, reason: ended.reason)
        }
        var stored = fromStore
        if let entry = unsaved.withLock({ $0 }) {
            if entry.generation == generation, fromStore?.refreshToken == entry.replaced.refreshToken {
                stored = entry.renewed
            } else {
                unsaved.withLock { if $0 == entry { $0 = nil } }
            }
        }
        guard let stored else {
            throw await sessionEndedElsewhere(.endedElsewhere, generation: generation)
        }
        guard stored.memberID == failed.memberID else {
            throw await sessionEndedElsewhere(.replacedByAnotherMember, generation: generation)
        }
        let now = configuration.now()
        let due = isDue(stored, at: now)
        if stored.accessToken != failed.accessToken, !due {
            return stored
        }
        // A refresh is explained when the token was due (expired or within the leeway by its
        // known expiry), or, expiry unknown, when the server had accepted it before refusing it.
        // A token refused within a second of its arrival is never explained by its lifetime
        // (a server that accepts each token once and then refuses it).
        let accepted = acceptedAccessToken.withLock { $0 == stored.accessToken }
        let young = stored.accessTokenIssuedAt.map { now.timeIntervalSince($0) < 1 } ?? false
        try await coordinator.admitRefresh(at: now, unexplained: !due && (stored.accessTokenExpiresAt != nil || !accepted || young))

        let tokens: Tokens
        let requestedAt = configuration.now()
        do {
            tokens = try await configuration.refresher.refresh(stored, server)
            let duration = configuration.now().timeIntervalSince(requestedAt)
            refreshDuration.withLock { $0 = RefreshTiming.smoothedDuration($0, adding: duration) }
        } catch {
            guard await coordinator.currentGeneration == generation else {
                throw SessionError(.sessionEnded, reason: .userSignedOut, underlying: error)
            }
            // The rule's reason, else any 4xx but 408 and 429: a refused request that repeating
            // cannot change (RefreshFailureRule.refusedRequest says why at the first answer).
            if let reason = configuration.effectiveRefreshFailureRule.sessionEndingReason(error)
                ?? RefreshFailureRule.refusedRequest.sessionEndingReason(error) {
                unsaved.withLock { $0 = nil }
                _ = await coordinator.endGeneration(from: generation)
                broadcaster.send(.signedOut(reason))
                do {
                    try await tokenStore.clear()
                } catch {
                    // The session is over but the store keeps its credentials (a database that
                    // is down): remember them as dead, so that later calls neither present the
                    // rejected refresh token again nor send `signedOut` again.
                    throw rememberEndedSession(fromStore ?? stored, reason: reason, storeError: error)
                }
                throw SessionError(.sessionEnded, reason: reason, underlying: error)
            }
            throw SessionError(.refreshFailed, underlying: error)
        }
        let renewed = credentials(from: tokens, accountID: stored.memberID, requestedAt: requestedAt)
        guard await coordinator.currentGeneration == generation else {
            // A sign-out (or sign-in) moved on while the server rotated: nothing is written,
            // but the sign-out waiting for the store must revoke these, not the retired ones.
            if let fromStore {
                overtakenRotation.withLock { $0 = UnsavedCredentials(replaced: fromStore, renewed: renewed, generation: generation) }
            }
            throw SessionError(.sessionEnded, reason: .userSignedOut)
        }
        do {
            try await tokenStore.save(renewed)
        } catch {
            // The server rotated: losing these would end the session. Keep them for this
            // process (unless a sign-in or sign-out moved on meanwhile), report the store's
            // failure, and save them again on the next call.
            if let fromStore {
                let entry = UnsavedCredentials(replaced: fromStore, renewed: renewed, generation: generation)
                unsaved.withLock { $0 = entry }
                if await coordinator.currentGeneration != generation {
                    unsaved.withLock { if $0 == entry { $0 = nil } }
                }
            }
            throw error
        }
        unsaved.withLock { $0 = nil }
        broadcaster.send(.refreshed(memberID: renewed.memberID))
        return renewed
    }

    /// The error for a session that another process ended (or replaced) while this one
    /// waited; subscribers hear of it once, unless this service already ended it itself.
    private func sessionEndedElsewhere(_ reason: SignOutReason, generation: Int) async -> SessionError {
        if await coordinator.endGeneration(from: generation) {
            broadcaster.send(.signedOut(reason))
            return SessionError(reason == .replacedByAnotherMember ? .sessionChanged : .sessionEnded, reason: reason)
        }
        return SessionError(.sessionEnded, reason: .userSignedOut)
    }

    /// Credentials from tokens the server just issued. The expiry is counted on this device's
    /// clock from the lifetime the server gave (`expiresIn`), so a device whose clock is off
    /// still refreshes on time; else from `expiresAt`; else from the access token's JWT
    /// `exp` (its lifetime `exp − iat` when `iat` is there: a scheduling hint, never checked);
    /// else the expiry is unknown and the token is refreshed when the server refuses it.
    ///
    /// The lifetime is counted from `requestedAt`, when the request that got the tokens was
    /// sent (the server issued them later), so the expiry here is never later than the server's.
    /// For a JWT whose `exp` and `iat` are whole seconds, the lifetime is a second shorter than
    /// `exp − iat` (`UnverifiedJWT.lifetime`): the server may have issued the token up to a
    /// second after the `iat` it wrote.
    func credentials(from tokens: Tokens, accountID: String, requestedAt: Date? = nil) -> Credentials {
        let now = requestedAt ?? configuration.now()
        var lifetime: TimeInterval?
        if let expiresIn = tokens.expiresIn {
            lifetime = expiresIn
        } else if let expiresAt = tokens.expiresAt {
            lifetime = expiresAt.timeIntervalSince(now)
        } else if let claims = UnverifiedJWT(tokens.accessToken.rawValue) {
            lifetime = claims.lifetime ?? claims.expiresAt?.timeIntervalSince(now)
        }
        guard let lifetime, lifetime.isFinite, lifetime > 0 else {
            return Credentials(accessToken: tokens.accessToken.rawValue, refreshToken: tokens.refreshToken,
                               accessTokenExpiresAt: nil, memberID: accountID, accessTokenIssuedAt: now)
        }
        return Credentials(
            accessToken: tokens.accessToken.rawValue,
            refreshToken: tokens.refreshToken,
            accessTokenExpiresAt: now.addingTimeInterval(lifetime),
            memberID: accountID,
            accessTokenIssuedAt: now
        )
    }
}

/// Rotated credentials the store could not save, the stored ones they replace, and the
/// session generation they belong to.
struct UnsavedCredentials: Sendable, Equatable {
    let replaced: Credentials
    let renewed: Credentials
    let generation: Int
}
