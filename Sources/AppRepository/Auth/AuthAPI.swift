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
    public static func signUp(email: String, password: String, nickname: String, server: Server) async throws(NetworkError) -> AuthSession {
        try await server.send(AuthEndpoint.signUp(email: email, password: password, nickname: nickname))
    }

    /// `POST /v1/auth/sign-in`: 401 `invalid_credentials` for a wrong email or password.
    public static func signIn(email: String, password: String, server: Server) async throws(NetworkError) -> AuthSession {
        try await server.send(AuthEndpoint.signIn(email: email, password: password))
    }

    /// `POST /v1/auth/anonymous`: creates an anonymous member and signs it in.
    public static func signInAnonymously(server: Server) async throws(NetworkError) -> AuthSession {
        try await server.send(AuthEndpoint.anonymous)
    }

    /// `POST /v1/auth/refresh`: trades a refresh token (one use) for new tokens.
    /// 401 `invalid_refresh_token` or `refresh_token_reused` when the session is over.
    public static func refresh(refreshToken: String, server: Server) async throws(NetworkError) -> Tokens {
        let result: RefreshResult = try await server.send(AuthEndpoint.refresh(refreshToken: refreshToken))
        return result.tokens
    }

    /// `POST /v1/auth/sign-out`: ends the session family of `refreshToken` on the server.
    public static func signOut(refreshToken: String, server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(AuthEndpoint.signOut(refreshToken: refreshToken), accessToken: accessToken)
    }
}
