public import NetworkService
public import TokenStore

/// The refresh call a ``SessionService`` makes, and how to tell when the server rejected
/// the refresh token (which ends the session) from a failure that may pass.
///
/// Presets cover common servers: ``OAuth2TokenClient/refresher`` (RFC 6749 §6) and
/// ``JSONTokenRefresh/refresher`` (a JSON endpoint with field names of your choice). For
/// anything else, write the call:
///
/// ```swift
/// let refresher = TokenRefresher(failureRule: .rejecting(statuses: [401], codes: nil)) { credentials, server in
///     let reply: LegacyTokenReply = try await server.send(LegacyEndpoint.renew(credentials.refreshToken))
///     return Tokens(accessToken: AccessToken(reply.token), refreshToken: reply.renewal, expiresIn: reply.ttl)
/// }
/// ```
public struct TokenRefresher: Sendable {
    /// Performs the refresh.
    public let refresh: @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Tokens
    /// Which failures of ``refresh`` mean the server rejected the refresh token. A
    /// ``SessionService/Configuration/refreshFailureRule`` set in the configuration takes precedence.
    public let failureRule: RefreshFailureRule

    /// Creates a refresher from a function.
    /// - Parameters:
    ///   - failureRule: Which of its failures end the session. Default
    ///     ``RefreshFailureRule/rejectedByServer``: the refresh call answered 401, or 400 `invalid_grant`.
    ///   - refresh: Trades the stored credentials for new tokens.
    public init(failureRule: RefreshFailureRule = .rejectedByServer,
                _ refresh: @escaping @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Tokens) {
        self.refresh = refresh
        self.failureRule = failureRule
    }
}
