public import NetworkService
public import SessionEngine

/// Signing up, in and out, and refreshing tokens: `/v1/auth`.
///
/// These are the plain calls; ``RepositoryService`` wraps them to keep the session in a
/// `TokenStore` and send session events. Use them directly in scripts and tests:
///
/// ```swift
/// let session = try await AuthAPI.signIn(email: "kim@example.com", password: "secret123", server: server)
/// let me = try await MemberAPI.fetchMe(server: server, accessToken: session.tokens.accessToken)
/// ```
public enum AuthAPI {
    /// `POST /v1/auth/sign-up`: creates an account and signs it in. 409 `email_taken` when the email has one.
    ///
    /// Through a server that proves every request (the one ``/SessionEngine/SessionService``
    /// hands a DPoP sign-in), a reply with `tokenType` `DPoP` is accepted too; otherwise only
    /// `Bearer` is (the same for every route here that returns tokens).
    public static func signUp(email: String, password: String, nickname: String, server: Server) async throws(NetworkError) -> AuthSession {
        try await session(from: .signUp(email: email, password: password, nickname: nickname), server: server)
    }

    /// `POST /v1/auth/sign-in`: 401 `invalid_credentials` for a wrong email or password.
    public static func signIn(email: String, password: String, server: Server) async throws(NetworkError) -> AuthSession {
        try await session(from: .signIn(email: email, password: password), server: server)
    }

    /// `POST /v1/auth/anonymous`: creates an anonymous member and signs it in.
    public static func signInAnonymously(server: Server) async throws(NetworkError) -> AuthSession {
        try await session(from: .anonymous, server: server)
    }

    /// `POST /v1/auth/refresh`: trades a refresh token (one use) for new tokens.
    /// 401 `invalid_refresh_token` or `refresh_token_reused` when the session is over; a
    /// DPoP-bound session's refresh token needs a server proving with its key (the engine's).
    public static func refresh(refreshToken: String, server: Server) async throws(NetworkError) -> Tokens {
        let endpoint = AuthEndpoint.refresh(refreshToken: refreshToken)
        let result: RefreshResult = try await server.send(endpoint)
        return try result.tokens.tokens(answering: endpoint, on: server)
    }

    /// `POST /v1/auth/sign-out`: ends the session family of `refreshToken` on the server.
    public static func signOut(refreshToken: String, server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(AuthEndpoint.signOut(refreshToken: refreshToken), accessToken: accessToken)
    }

    /// Sends a sign-in route and reads its session, its tokens' type judged by how it was sent.
    private static func session(from endpoint: AuthEndpoint, server: Server) async throws(NetworkError) -> AuthSession {
        let reply: AuthSessionReply = try await server.send(endpoint)
        return try reply.session(answering: endpoint, on: server)
    }
}
