import NetworkService
import TokenStore

extension RepositoryService {
    /// Creates an account, signs it in and saves its credentials; sends `signedIn`.
    @discardableResult
    public func signUp(email: String, password: String, nickname: String) async throws -> Member {
        try await begin(try await AuthAPI.signUp(email: email, password: password, nickname: nickname, server: server))
    }

    /// Signs in with email and password and saves the credentials; sends `signedIn`.
    /// A wrong email or password throws a `NetworkError` with code `invalid_credentials`;
    /// the stored credentials are then left as they were.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Member {
        try await begin(try await AuthAPI.signIn(email: email, password: password, server: server))
    }

    /// Signs in as a new anonymous member and saves the credentials; sends `signedIn`.
    @discardableResult
    public func signInAnonymously() async throws -> Member {
        try await begin(try await AuthAPI.signInAnonymously(server: server))
    }

    /// Signs out: ends the session on the server when it can be reached, and always here.
    ///
    /// The store is cleared first (and a refresh in flight writes nothing), so the member is
    /// signed out locally even offline; then the server is told, refreshing once with the
    /// stored refresh token if the access token has expired. Sends `signedOut(.userSignedOut)`
    /// when there was a session.
    ///
    /// - Returns: whether there was a session and whether the server confirmed the sign-out.
    /// - Throws: ``TokenStoreError`` when the store cannot be read (a wrong passphrase, a
    ///   modified file) or cleared; the store is then left as it was, since its session could
    ///   not be ended on the server. Call `tokenStore.clear()` to discard it anyway (the file
    ///   is moved aside, not deleted).
    @discardableResult
    public func signOut() async throws -> SignOutResult {
        await coordinator.startNewGeneration()
        let credentials = try await tokenStore.withExclusiveAccess { [tokenStore] in
            let credentials = try await tokenStore.load()
            if credentials != nil { try await tokenStore.clear() }
            return credentials
        }
        guard let credentials else {
            return SignOutResult(wasSignedIn: false, serverError: nil)
        }
        broadcaster.send(.signedOut(.userSignedOut))
        do {
            try await AuthAPI.signOut(refreshToken: credentials.refreshToken, server: server,
                                      accessToken: AccessToken(credentials.accessToken))
            return SignOutResult(wasSignedIn: true, serverError: nil)
        } catch where error.isAuthenticationFailure(under: configuration.authenticationFailurePolicy) {
            do {
                let tokens = try await configuration.refresher.refresh(credentials, server)
                try await AuthAPI.signOut(refreshToken: tokens.refreshToken, server: server, accessToken: tokens.accessToken)
                return SignOutResult(wasSignedIn: true, serverError: nil)
            } catch {
                return SignOutResult(wasSignedIn: true, serverError: error)
            }
        } catch {
            return SignOutResult(wasSignedIn: true, serverError: error)
        }
    }

    /// Deletes the member's account on the server, then clears the store; sends
    /// `signedOut(.accountDeleted)`.
    public func deleteAccount() async throws {
        let memberID = try await signedInMemberID()
        try await request { server, token in try await MemberAPI.deleteMe(server: server, accessToken: token) }
        await coordinator.startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in
            // Another program may have signed in as someone else meanwhile: keep that session.
            if try await tokenStore.load()?.memberID == memberID { try await tokenStore.clear() }
        }
        broadcaster.send(.signedOut(.accountDeleted))
    }

    /// Whether credentials are stored (a session restored from the store counts).
    /// Throws ``TokenStoreError`` when the store cannot be read.
    public func isSignedIn() async throws -> Bool {
        try await tokenStore.load() != nil
    }

    /// The id of the member whose credentials are stored, if any.
    public func signedInMemberID() async throws -> String? {
        try await tokenStore.load()?.memberID
    }

    /// Keeps a session obtained through ``AuthAPI`` directly: saves its credentials
    /// (replacing any other) and sends `signedIn`. For front ends that look at the member
    /// before keeping the session (an admin tool refusing members, say):
    ///
    /// ```swift
    /// let session = try await AuthAPI.signIn(email: email, password: password, server: service.server)
    /// guard session.member.role == .admin else { … }   // nothing stored yet
    /// try await service.startSession(session)
    /// ```
    @discardableResult
    public func startSession(_ session: AuthSession) async throws -> Member {
        try await begin(session)
    }

    /// Saves a new session's credentials (replacing any other) and tells subscribers.
    private func begin(_ session: AuthSession) async throws -> Member {
        let credentials = credentials(from: session.tokens, memberID: session.member.id.uuidString)
        await coordinator.startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in try await tokenStore.save(credentials) }
        broadcaster.send(.signedIn(session.member))
        return session.member
    }
}

/// What ``RepositoryService/signOut()`` did.
public struct SignOutResult: Sendable {
    /// Whether credentials were stored before the sign-out.
    public let wasSignedIn: Bool
    /// Why the server could not be told, if it could not (the local sign-out happened anyway).
    public let serverError: (any Error)?

    /// Whether the server ended the session too.
    public var serverConfirmed: Bool { wasSignedIn && serverError == nil }
}
