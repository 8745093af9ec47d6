import Foundation
public import NetworkService
public import TokenStore

/// The session engine: it supplies the server and a working access token to every call,
/// keeps the session in a ``/TokenStore/TokenStore``, and refreshes it when needed, for any server
/// described by its ``Configuration``.
///
/// ```swift
/// let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase(passphrase))
/// let server = try Server(baseURL: "https://auth.example.com")
/// let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: "cli")
/// let service = SessionService(server: server, tokenStore: store, configuration: .oauth2(oauth))
/// try await service.startSession(tokens: try await oauth.passwordGrant(username: "kim", password: password, server: server),
///                                accountID: "kim")
/// let me: Me = try await service.request { server, token in
///     try await server.send(MeEndpoint(), accessToken: token)
/// }
/// ```
///
/// ``request(handler:)`` follows the <doc:SessionRules>, which say when tokens are refreshed,
/// by whom, and when a session ends.
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

    /// The engine's whole mutable state: one value behind one lock, changed only by the
    /// named transitions of ``SessionState`` (docs/DESIGN.md §3).
    let state = LockedValue(SessionState())
    let broadcaster = SessionEventBroadcaster()
    /// Takes turns among the calls when ``Configuration/callLimit`` is set.
    let gate: CallGate?
    /// The proving servers of the last DPoP key this service signed with (`SessionService+DPoP`).
    let proving = LockedValue<ProvingServers?>(nil)

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
        gate = configuration.callLimit.map { CallGate(limit: $0, now: configuration.now, sleep: configuration.sleep) }
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
    ///   ``SessionError/underlying``); ``/TokenStore/TokenStoreError`` when the store cannot be read;
    ///   otherwise whatever `handler` throws (a `NetworkError`).
    public func request<T: Sendable>(handler: (Server, AccessToken) async throws -> T) async throws -> T {
        guard let gate else { return try await requestInTurn(handler: handler) }
        // The token is taken once the call's turn has come, not while it waits (CallLimit).
        try await gate.enter()
        defer { gate.leave() }
        return try await requestInTurn(handler: handler)
    }

    /// ``request(handler:)`` once the call's turn has come.
    private func requestInTurn<T: Sendable>(handler: (Server, AccessToken) async throws -> T) async throws -> T {
        guard var credentials = try await currentCredentials() else {
            throw SessionError(.notSignedIn)
        }
        var refreshed = false
        // Whether this call's refresh got its token from the server itself (rule 2: then a 401
        // is not answered by another refresh).
        var askedServer = false
        if isDue(credentials, at: configuration.now()) {
            do {
                var renewal = try await refresh(after: credentials, cause: .due)
                (credentials, refreshed, askedServer) = (renewal.credentials, true, renewal.askedServer)
                if isDue(credentials, at: configuration.now()) {
                    // The answer took nearly the token's whole lifetime (a starved server or
                    // machine): the new token would expire on its way. Once more, then never
                    // hand out one that has expired.
                    renewal = try await refresh(after: credentials, cause: .due)
                    (credentials, askedServer) = (renewal.credentials, askedServer || renewal.askedServer)
                }
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
        if refreshed, let expiresAt = credentials.accessTokenExpiresAt, expiresAt <= configuration.now() {
            throw Self.spentOnArrival
        }
        do {
            return try await call(handler, with: credentials)
        } catch {
            // A `NetworkError`, or a `ResponseStatusError` from a handler with a transport of its own.
            guard !askedServer, let failure = authenticationFailure(in: error) else { throw error }
            do {
                credentials = try await refresh(after: credentials, cause: .authenticationFailure(statusCode: failure.statusCode)).credentials
            } catch let limit as SessionError where limit.kind == .refreshLimitExceeded
                        && failure.statusCode == 403 && !failure.isAuthenticationFailure {
                // A bare 403 (counted only because the policy opts in) on a token that was not
                // due, again and again: a permission refusal far more likely than a loop of
                // expired tokens; the caller gets the server's answer.
                throw error
            }
            return try await call(handler, with: credentials)
        }
    }

    /// What a call throws when two refreshes in a row brought access tokens that had expired by
    /// the time their answers arrived: the session is kept, and a later call tries again.
    static let spentOnArrival = SessionError(
        .refreshFailed,
        detail: "the server's new access token had expired by the time its answer arrived (the server or this machine is too slow for the token's lifetime)")

    /// Calls `handler` with the access token in `credentials` and notes whether the server accepted it.
    private func call<T>(_ handler: (Server, AccessToken) async throws -> T, with credentials: Credentials) async throws -> T {
        let (server, accessToken) = try callServerAndToken(for: credentials)
        do {
            let result = try await handler(server, accessToken)
            noteAccepted(credentials.accessToken.rawValue)
            return result
        } catch {
            if let stepUp = stepUpRequired(by: error, accountID: credentials.accountID) {
                // The token was good, the sign-in behind it not enough (RFC 9470): no refresh,
                // the session kept, the caller told what the server asks for.
                noteAccepted(credentials.accessToken.rawValue)
                throw stepUp
            }
            if let error = error as? NetworkError, [403, 404, 409, 422].contains(error.statusCode ?? 0),
               error.serverErrorCode != nil, !error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
                // A contract error such as 404 or 403 from the API itself got past authentication;
                // a gateway's 5xx, a 429 or a bare 404 says nothing about the token, and a 403 that
                // counts as an authentication failure (`invalid_token`, or opted in) refused it.
                noteAccepted(credentials.accessToken.rawValue)
            }
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
            lifetime: lifetime, refreshDuration: state.withLock { $0.refreshDuration }, leeway: configuration.refreshLeeway)
        return credentials.accessTokenExpires(within: margin, of: now)
    }

    private func noteAccepted(_ token: String) {
        state.withLock { $0.noteAccepted(token) }
    }

    /// The stored credentials, or the rotated ones the store could not save yet (which are
    /// then saved again: once the store takes them, it is the truth again). Never those of a
    /// session that ended here: those are removed (or the call fails saying they could not be).
    private func currentCredentials() async throws -> Credentials? {
        guard let entry = state.withLock({ $0.unsaved }) else {
            return try await removingEndedCredentials(try await tokenStore.load())
        }
        do {
            try await tokenStore.withExclusiveAccess { [tokenStore] in
                // Saved only over what they replaced: if the store moved on (another program
                // signed out, in, or refreshed), its session wins and these are dropped.
                guard try await tokenStore.load()?.identifyingToken == entry.replaced.identifyingToken else { return }
                try await tokenStore.save(entry.renewed)
            }
        } catch {
            // Still not saved: keep working with them; the failure was reported.
            if state.withLock({ $0.unsaved }) == entry { return entry.renewed }
        }
        state.withLock { $0.forgetUnsaved(entry) }
        return try await removingEndedCredentials(try await tokenStore.load())
    }

    /// Starts a new session generation (sign-in, sign-out, account deletion): the refresh in
    /// flight is cancelled and writes nothing, unsaved credentials are forgotten. Returns those
    /// (a sign-out revokes them).
    @discardableResult
    func startNewGeneration() -> UnsavedCredentials? {
        let next = state.withLock { $0.startNewGeneration() }
        next.refreshToCancel?.cancel()
        return next.forgottenUnsaved
    }
}
