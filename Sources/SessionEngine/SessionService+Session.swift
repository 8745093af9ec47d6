import NetworkService
public import TokenStore

extension SessionService {
    /// Keeps a session obtained elsewhere: saves its credentials (replacing any other) and
    /// sends ``SessionEvent/signedIn(accountID:)``. Any sign-in flow can end here: a password
    /// grant, an authorization code exchanged elsewhere, a device flow, a token pasted into a
    /// CI secret.
    ///
    /// ```swift
    /// let tokens = try await oauth.passwordGrant(username: "kim", password: password, server: server)
    /// try await service.startSession(tokens: tokens, accountID: "kim")
    /// ```
    ///
    /// - Parameters:
    ///   - tokens: The session's tokens. Their expiry comes from ``Tokens/expiresIn``, else
    ///     ``Tokens/expiresAt``, else a JWT access token's `exp`, else is unknown.
    ///   - accountID: Whose session it is; `nil` reads the `sub` claim of a JWT access token.
    ///     Pass it whenever the server's tokens are opaque or name the user in another claim
    ///     (djangorestframework-simplejwt's `user_id`, say): the username the user signed in
    ///     with will do.
    /// - Returns: The account id the session was stored under.
    /// - Throws: ``SessionError`` (``SessionError/Kind/accountUnknown``, whose message says
    ///   what was missing: an opaque token, a JWT without `sub`, an empty id) when there is no
    ///   account id; nothing is stored then. ``TokenStoreError`` when the store cannot save.
    @discardableResult
    public func startSession(tokens: Tokens, accountID: String? = nil) async throws -> String {
        let accountID = try Self.accountID(accountID, of: tokens)
        let credentials = credentials(from: tokens, accountID: accountID)
        await startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in try await tokenStore.save(credentials) }
        // The store no longer holds the credentials of an ended session (if it did); these
        // are used even if they are the same tokens: the caller says they are good.
        endedCredentials.withLock { $0 = nil }
        overtakenRotation.withLock { $0 = nil }
        broadcaster.send(.signedIn(accountID: accountID))
        return accountID
    }

    /// `given`, else the `sub` claim of a JWT access token.
    /// - Throws: ``SessionError/Kind/accountUnknown`` saying what was missing.
    private static func accountID(_ given: String?, of tokens: Tokens) throws(SessionError) -> String {
        let pass = "pass `accountID:` (the username the user signed in with, say)"
        if let given {
            guard !given.isEmpty else { throw SessionError(.accountUnknown, detail: "the account id given is empty: \(pass)") }
            return given
        }
        guard let claims = UnverifiedJWT(tokens.accessToken.rawValue) else {
            throw SessionError(.accountUnknown, detail: "no account id was given and the access token is not a JWT, "
                + "so nothing names the account: \(pass)")
        }
        guard let subject = claims.subject, !subject.isEmpty else {
            let what = claims.subject == nil ? "without a `sub` claim" : "whose `sub` claim is empty"
            let names = claims.claimNames.isEmpty ? "none" : claims.claimNames.joined(separator: ", ")
            throw SessionError(.accountUnknown, detail: "no account id was given and the access token is a JWT \(what) "
                + "(its claims: \(names)): \(pass), or the claim that names the user")
        }
        return subject
    }

    /// Signs out: ends the session here always, and on the server when it can be reached.
    ///
    /// The store is cleared first (and a refresh in flight writes nothing), so the account is
    /// signed out locally even offline; then the ``Configuration/revoker`` tells the server
    /// (for a revoker that uses the access token, refreshing once with the stored refresh
    /// token if the access token has expired). Sends `signedOut(.userSignedOut)` when there
    /// was a session.
    ///
    /// When the store can be read but not locked or cleared — a read-only folder
    /// (``/TokenStore/TokenStoreError/Kind/io``), a read-only database
    /// (``/TokenStore/TokenStoreError/Kind/readOnly``) or a backend that is down for a moment
    /// (``/TokenStore/TokenStoreError/isTransient``, such as
    /// ``/TokenStore/TokenStoreError/Kind/unavailable``) — the session still ends on the server
    /// and the result says the local copy stays.
    ///
    /// When the stored credentials are those of a session the server already ended here (see
    /// ``SessionError/Kind/sessionEndedCredentialsNotRemoved``), signing out only removes them:
    /// the server is not told again (they are dead) and no second `signedOut` is sent; the
    /// result's ``SignOutResult/wasSignedIn`` is `false`, and ``SignOutResult/localError`` says
    /// if they still could not be removed.
    ///
    /// - Returns: whether there was a session, whether the server confirmed the sign-out, and
    ///   whether the local copy could not be removed (``SignOutResult/localError``: a
    ///   read-only folder, a database that is down, say; the server was told all the same).
    /// - Throws: ``TokenStoreError`` when the store cannot be read (a wrong passphrase, a
    ///   modified file, a database that is down); the store is then left as it was, since its
    ///   session could not be ended on the server. Call `tokenStore.clear()` to discard it
    ///   anyway (the file is moved aside, not deleted).
    @discardableResult
    public func signOut() async throws -> SignOutResult {
        let pending = unsaved.withLock { $0 }
        await startNewGeneration()
        var credentials: Credentials?
        var localError: TokenStoreError?
        do {
            credentials = try await tokenStore.withExclusiveAccess { [tokenStore] in
                let credentials = try await tokenStore.load()
                if credentials != nil { try await tokenStore.clear() }
                return credentials
            }
        } catch let error as TokenStoreError where error.kind == .io || error.kind == .readOnly || error.isTransient {
            // The store can be read but not locked or cleared (a read-only folder or database, a
            // database that is down or restarting): the session still ends on the server, and the result
            // says the local copy stays. (A lock held by another program past the timeout is not
            // this: it may be mid-refresh.)
            let readable: Credentials?
            do { readable = try await tokenStore.load() } catch { throw error }
            credentials = readable
            localError = readable == nil ? nil : error
        }
        // A refresh this sign-out overtook may have got new tokens from the server while the
        // sign-out waited for the store: those are the live ones (taken once).
        let overtaken = overtakenRotation.withLock { value in
            defer { value = nil }
            return value
        }
        guard var credentials else {
            return SignOutResult(wasSignedIn: false, serverError: nil)
        }
        if let ended = endedSession(of: credentials) {
            // The server already ended this session and `signedOut` was sent: the rejected
            // refresh token is not presented again; only the local copy had to go.
            if localError == nil { forgetEndedSession(ended) }
            return SignOutResult(wasSignedIn: false, serverError: nil, localError: localError)
        }
        // Rotated credentials the store could not take, or that a refresh got after this
        // sign-out began, are the live ones: revoke those.
        if let pending, pending.replaced.refreshToken == credentials.refreshToken {
            credentials = pending.renewed
        } else if let overtaken, overtaken.replaced.refreshToken == credentials.refreshToken {
            credentials = overtaken.renewed
        }
        broadcaster.send(.signedOut(.userSignedOut))
        return SignOutResult(wasSignedIn: true, serverError: await revoke(credentials), localError: localError)
    }

    /// Tells the server the session is over; returns why it could not, if it could not.
    private func revoke(_ credentials: Credentials) async -> (any Error)? {
        let revoker = configuration.revoker
        do {
            try await revoker.revoke(credentials, server)
            return nil
        } catch let error as NetworkError
                    where revoker.usesAccessToken && error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
            do {
                let tokens = try await configuration.refresher.refresh(credentials, server)
                try await revoker.revoke(self.credentials(from: tokens, accountID: credentials.memberID), server)
                return nil
            } catch {
                return error
            }
        } catch {
            return error
        }
    }

    /// Whether credentials are stored (a session restored from the store counts). Those of a
    /// session the server ended here, which the store could not remove yet
    /// (``SessionError/Kind/sessionEndedCredentialsNotRemoved``), do not count.
    /// Throws ``TokenStoreError`` when the store cannot be read.
    public func isSignedIn() async throws -> Bool {
        try await liveStoredCredentials() != nil
    }

    /// The id of the account whose credentials are stored, if any;
    /// `nil` for credentials of a session the server ended here that the store could not
    /// remove yet.
    public func signedInAccountID() async throws -> String? {
        try await liveStoredCredentials()?.memberID
    }

    /// The stored credentials, unless they are those of a session that ended here.
    private func liveStoredCredentials() async throws -> Credentials? {
        guard let stored = try await tokenStore.load(), endedSession(of: stored) == nil else { return nil }
        return stored
    }
}

/// What ``SessionService/signOut()`` did.
public struct SignOutResult: Sendable {
    /// Whether credentials were stored before the sign-out.
    public let wasSignedIn: Bool
    /// Why the server could not be told, if it could not (the local sign-out happened anyway).
    public let serverError: (any Error)?
    /// Why the stored credentials could not be removed, if they could not (a read-only
    /// folder, a database that is down, say); the server was told all the same. With
    /// ``wasSignedIn`` `false`, they were the credentials of a session that had already ended
    /// (``SessionError/Kind/sessionEndedCredentialsNotRemoved``): they are not used again.
    public let localError: TokenStoreError?

    /// Creates a result.
    public init(wasSignedIn: Bool, serverError: (any Error)?, localError: TokenStoreError? = nil) {
        self.wasSignedIn = wasSignedIn
        self.serverError = serverError
        self.localError = localError
    }

    /// Whether the server ended the session too.
    public var serverConfirmed: Bool { wasSignedIn && serverError == nil }
    /// Whether the stored credentials were removed (or there were none).
    public var removedLocally: Bool { localError == nil }
}
