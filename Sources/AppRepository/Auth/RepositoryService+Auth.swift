import NetworkService
import TokenStore

extension RepositoryService {
    /// Creates an account, signs it in and saves its credentials; sends `signedIn`.
    @discardableResult
    public func signUp(email: String, password: String, nickname: String) async throws -> Member {
        try await startSession(try await AuthAPI.signUp(email: email, password: password, nickname: nickname, server: server))
    }

    /// Signs in with email and password and saves the credentials; sends `signedIn`.
    /// A wrong email or password throws a `NetworkError` with code `invalid_credentials`;
    /// the stored credentials are then left as they were.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Member {
        try await startSession(try await AuthAPI.signIn(email: email, password: password, server: server))
    }

    /// Signs in as a new anonymous member and saves the credentials; sends `signedIn`.
    @discardableResult
    public func signInAnonymously() async throws -> Member {
        try await startSession(try await AuthAPI.signInAnonymously(server: server))
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
        try await startSession(tokens: session.tokens, accountID: session.member.id.uuidString)
        return session.member
    }

    /// Deletes the member's account on the server, then clears the store; sends
    /// `signedOut(.accountDeleted)`.
    public func deleteAccount() async throws {
        let memberID = try await signedInAccountID()
        try await request { server, token in try await MemberAPI.deleteMe(server: server, accessToken: token) }
        await startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in
            // Another program may have signed in as someone else meanwhile: keep that session.
            if try await tokenStore.load()?.memberID == memberID { try await tokenStore.clear() }
        }
        broadcaster.send(.signedOut(.accountDeleted))
    }
}
