import NetworkService
public import SessionEngine

extension RepositoryService {
    /// Creates an account, signs it in and saves its credentials; sends `signedIn`.
    ///
    /// With `Configuration.dpop` set, the session is bound to a new DPoP key (RFC 9449): the
    /// request carries a proof of it, and the key is saved with the tokens (the same for
    /// `signIn(email:password:)` and `signInAnonymously()`). A server that answers the proof
    /// with a bearer token is refused by default (`SessionError` `dpopNotHonoured`: nothing stored).
    @discardableResult
    public func signUp(email: String, password: String, nickname: String) async throws -> Member {
        try await signIn { server throws(NetworkError) in
            try await AuthAPI.signUp(email: email, password: password, nickname: nickname, server: server)
        }
    }

    /// Signs in with email and password and saves the credentials; sends `signedIn`.
    /// A wrong email or password throws a `NetworkError` with code `invalid_credentials`;
    /// the stored credentials are then left as they were.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Member {
        try await signIn { server throws(NetworkError) in
            try await AuthAPI.signIn(email: email, password: password, server: server)
        }
    }

    /// Signs in as a new anonymous member and saves the credentials; sends `signedIn`.
    @discardableResult
    public func signInAnonymously() async throws -> Member {
        try await signIn { server throws(NetworkError) in try await AuthAPI.signInAnonymously(server: server) }
    }

    /// Signs in through `signIn` and keeps the session under the member's id, through the
    /// engine's sign-in (`startSession(accountID:signingInWith:)`): `signIn` gets a server proving
    /// a new DPoP key when `Configuration.dpop` is set, and the key is saved with the tokens.
    private func signIn(through signIn: (Server) async throws(NetworkError) -> AuthSession) async throws -> Member {
        try await startSession { server in
            let session = try await signIn(server)
            return (session.tokens, session.member.id.uuidString, session.member)
        }.answer
    }

    /// Keeps a session obtained through ``AuthAPI`` directly: saves its credentials
    /// (replacing any other) and sends `signedIn`. For front ends that look at the member
    /// before keeping the session (an admin tool refusing members, say). Such a session is a
    /// bearer session, whatever `Configuration.dpop` says (its sign-in proved no key):
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
    /// `signedOut(.accountDeleted)` once the server deleted it, whatever the store does then.
    ///
    /// - Throws: what the request throws (the account was not deleted); after the deletion,
    ///   `SessionError.Kind.sessionEndedCredentialsNotRemoved` when the store holds the
    ///   account's credentials and cannot remove them (a database that is down: they are never
    ///   used again, and later calls retry the removal), or the ``/TokenStore/TokenStoreError``
    ///   of a store that cannot be locked or read.
    public func deleteAccount() async throws {
        guard let accountID = try await signedInAccountID() else {
            // No live session: `request` throws why (not signed in, or the credentials of an
            // ended session the store could not remove yet, which it tries to remove again).
            try await request { _, _ in }
            throw SessionError(.sessionChanged)   // another program signed in meanwhile
        }
        try await request { server, token in try await MemberAPI.deleteMe(server: server, accessToken: token) }
        // The account is gone on the server whatever the store does now: `signedOut` is sent
        // in every case, and credentials the store cannot remove are remembered as dead.
        try await endSession(reason: .accountDeleted, ifStoredAccountIs: accountID)
    }
}
