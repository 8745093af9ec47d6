import NetworkService
public import TokenStore

extension RepositoryService {
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
    /// - Returns: The account id the session was stored under.
    /// - Throws: ``SessionError`` (``SessionError/Kind/accountUnknown``) when there is no
    ///   account id; ``TokenStoreError`` when the store cannot save.
    @discardableResult
    public func startSession(tokens: Tokens, accountID: String? = nil) async throws -> String {
        guard let accountID = accountID ?? UnverifiedJWT(tokens.accessToken.rawValue)?.subject, !accountID.isEmpty else {
            throw SessionError(.accountUnknown)
        }
        let credentials = credentials(from: tokens, accountID: accountID)
        await startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in try await tokenStore.save(credentials) }
        broadcaster.send(.signedIn(accountID: accountID))
        return accountID
    }

    /// Signs out: ends the session here always, and on the server when it can be reached.
    ///
    /// The store is cleared first (and a refresh in flight writes nothing), so the account is
    /// signed out locally even offline; then the ``Configuration/revoker`` tells the server
    /// (for a revoker that uses the access token, refreshing once with the stored refresh
    /// token if the access token has expired). Sends `signedOut(.userSignedOut)` when there
    /// was a session.
    ///
    /// - Returns: whether there was a session, whether the server confirmed the sign-out, and
    ///   whether the local copy could not be removed (``SignOutResult/localError``: a
    ///   read-only folder, say; the server was told all the same).
    /// - Throws: ``TokenStoreError`` when the store cannot be read (a wrong passphrase, a
    ///   modified file); the store is then left as it was, since its session could not be
    ///   ended on the server. Call `tokenStore.clear()` to discard it anyway (the file is moved
    ///   aside, not deleted).
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
        } catch let error as TokenStoreError where error.kind == .io {
            // The store can be read but not locked or cleared (a read-only folder): the session
            // still ends on the server, and the result says the local copy stays. (A lock held
            // by another program past the timeout is not this: it may be mid-refresh.)
            let readable: Credentials?
            do { readable = try await tokenStore.load() } catch { throw error }
            credentials = readable
            localError = readable == nil ? nil : error
        }
        guard var credentials else {
            return SignOutResult(wasSignedIn: false, serverError: nil)
        }
        // Rotated credentials the store could not take are the live ones: revoke those.
        if let pending, pending.replaced.refreshToken == credentials.refreshToken {
            credentials = pending.renewed
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

    /// Whether credentials are stored (a session restored from the store counts).
    /// Throws ``TokenStoreError`` when the store cannot be read.
    public func isSignedIn() async throws -> Bool {
        try await tokenStore.load() != nil
    }

    /// The id of the account whose credentials are stored, if any (the app's member id).
    public func signedInAccountID() async throws -> String? {
        try await tokenStore.load()?.memberID
    }
}

/// What ``RepositoryService/signOut()`` did.
public struct SignOutResult: Sendable {
    /// Whether credentials were stored before the sign-out.
    public let wasSignedIn: Bool
    /// Why the server could not be told, if it could not (the local sign-out happened anyway).
    public let serverError: (any Error)?
    /// Why the stored credentials could not be removed, if they could not (a read-only
    /// folder, say); the server was told all the same.
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
