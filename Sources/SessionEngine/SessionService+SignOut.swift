import NetworkService
import TokenStore

extension SessionService {
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
    /// - Throws: ``/TokenStore/TokenStoreError`` when the store cannot be read (a wrong passphrase, a
    ///   modified file, a database that is down); the store is then left as it was, since its
    ///   session could not be ended on the server. Call `tokenStore.clear()` to discard it
    ///   anyway (the file is moved aside, not deleted).
    @discardableResult
    public func signOut() async throws -> SignOutResult {
        let pending = startNewGeneration()
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
        let overtaken = state.withLock { $0.takeOvertaken() }
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
        if let pending, pending.replaced.identifyingToken == credentials.identifyingToken {
            credentials = pending.renewed
        } else if let overtaken, overtaken.replaced.identifyingToken == credentials.identifyingToken {
            credentials = overtaken.renewed
        }
        broadcaster.send(.signedOut(.userSignedOut))
        return SignOutResult(wasSignedIn: true, serverError: await revoke(credentials), localError: localError)
    }

    /// Tells the server the session is over; returns why it could not, if it could not.
    ///
    /// A DPoP-bound session's revocation proves every request with its key, and sends a DPoP
    /// access token as `DPoP` (through the plain server when no kind here can sign with the key:
    /// the sign-out itself never fails on it).
    private func revoke(_ stored: Credentials) async -> (any Error)? {
        let revoker = configuration.revoker
        let proving = stored.dpopKey == nil ? nil : try? tokenRequestServer(for: stored)
        let server = proving ?? server
        func sent(_ credentials: Credentials) -> Credentials {
            guard proving != nil, credentials.accessTokenType == Self.dpopTokenType else { return credentials }
            var bound = credentials
            bound.accessToken = AccessToken(credentials.accessToken.rawValue, scheme: .dpop)
            return bound
        }
        let credentials = sent(stored)
        do {
            try await revoker.revoke(credentials, server)
            return nil
        } catch let error as NetworkError
                    where revoker.usesAccessToken && error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
            do {
                let tokens = try await configuration.refresher.refresh(credentials, server)
                try await revoker.revoke(sent(self.credentials(from: tokens, accountID: credentials.accountID, dpopKey: credentials.dpopKey)),
                                         server)
                return nil
            } catch {
                return error
            }
        } catch {
            return error
        }
    }
}
