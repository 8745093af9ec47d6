import TokenStore

extension SessionService {
    /// The ended session `credentials` belong to, if they are the stored credentials of a
    /// session that ended here and could not be removed.
    func endedSession(of credentials: Credentials) -> EndedCredentials? {
        state.withLock { $0.endedSession(of: credentials) }
    }

    /// Remembers `stored` as the credentials of a session that ended for `reason` but that the
    /// store could not remove (`storeError`), and returns the error that says so.
    func rememberEndedSession(_ stored: Credentials, reason: SignOutReason,
                              storeError: TokenStoreError) -> SessionError {
        state.withLock { $0.rememberEnded(EndedCredentials(stored, reason: reason)) }
        return SessionError(.sessionEndedCredentialsNotRemoved, reason: reason, underlying: storeError)
    }

    /// Removes the ended session's credentials; call it inside the store's exclusive section,
    /// with the store holding them.
    /// - Throws: ``SessionError/Kind/sessionEndedCredentialsNotRemoved`` when the store still cannot.
    func removeEndedCredentialsInsideExclusiveSection(_ ended: EndedCredentials) async throws(SessionError) {
        do {
            try await tokenStore.clear()
        } catch {
            throw SessionError(.sessionEndedCredentialsNotRemoved, reason: ended.reason, underlying: error)
        }
        forgetEndedSession(ended)
    }

    /// Forgets `ended` once the store no longer holds its credentials (unless another ended
    /// session has replaced it in memory meanwhile).
    func forgetEndedSession(_ ended: EndedCredentials) {
        state.withLock { $0.forgetEnded(ended) }
    }

    /// `loaded`, unless they are the credentials of a session that ended here and could not be
    /// removed: those are removed now, and what the store holds afterwards is returned (nothing,
    /// unless another program saved a session meanwhile). They are never returned themselves.
    /// - Throws: ``SessionError/Kind/sessionEndedCredentialsNotRemoved`` when the store still
    ///   cannot remove them.
    func removingEndedCredentials(_ loaded: Credentials?) async throws -> Credentials? {
        guard let loaded, let ended = endedSession(of: loaded) else { return loaded }
        do {
            return try await tokenStore.withExclusiveAccess { [self] in
                let stored = try await tokenStore.load()
                guard let stored, ended.matches(stored) else {
                    // Another program cleared or replaced them meanwhile: nothing to remove.
                    forgetEndedSession(ended)
                    return stored
                }
                try await removeEndedCredentialsInsideExclusiveSection(ended)
                return nil
            }
        } catch let error as TokenStoreError {
            // The exclusive section or the re-read failed: the credentials stay, and so does
            // the memory of them.
            throw SessionError(.sessionEndedCredentialsNotRemoved, reason: ended.reason, underlying: error)
        }
    }
}

extension SessionService {
    /// Ends the session of `accountID` for `reason`, decided outside the engine (the server
    /// deleted the account, say): a refresh in flight writes nothing, the store is cleared if
    /// it still holds that account's credentials (another program may have signed in as
    /// someone else meanwhile: that session is kept), and `signedOut(reason)` is sent in every
    /// case, since the session is over whatever the store does.
    ///
    /// ```swift
    /// let accountID = try await service.signedInAccountID()
    /// try await service.request { server, token in try await server.send(DeleteMe(), accessToken: token) }
    /// try await service.endSession(reason: .accountDeleted, ifStoredAccountIs: accountID)
    /// ```
    ///
    /// - Throws: ``SessionError/Kind/sessionEndedCredentialsNotRemoved`` when the store holds
    ///   the account's credentials and cannot remove them (a database that is down: they are
    ///   never used again, and later calls retry the removal), or the
    ///   ``/TokenStore/TokenStoreError`` of a store that cannot be locked or read.
    public func endSession(reason: SignOutReason, ifStoredAccountIs accountID: String) async throws {
        startNewGeneration()
        defer { broadcaster.send(.signedOut(reason)) }
        let kept: (credentials: Credentials, error: TokenStoreError)? = try await tokenStore.withExclusiveAccess { [tokenStore] in
            guard let stored = try await tokenStore.load(), stored.accountID == accountID else { return nil }
            do {
                try await tokenStore.clear()
                return nil
            } catch let error as TokenStoreError {
                return (stored, error)
            }
        }
        if let kept {
            throw rememberEndedSession(kept.credentials, reason: reason, storeError: kept.error)
        }
    }
}
