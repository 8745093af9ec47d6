public import NetworkService
public import TokenStore

/// The refresh call a ``RepositoryService`` makes: the app's `POST /v1/auth/refresh` by
/// default, or anything else that trades stored credentials for new tokens.
///
/// Swap it to keep sessions alive against a server that refreshes differently, without
/// forking the SDK:
///
/// ```swift
/// let refresher = TokenRefresher { credentials, server in
///     let reply: LegacyTokenReply = try await server.send(LegacyEndpoint.renew(credentials.refreshToken))
///     return Tokens(accessToken: AccessToken(reply.token), refreshToken: reply.renewal,
///                   expiresIn: reply.ttl, expiresAt: .now + TimeInterval(reply.ttl))
/// }
/// ```
public struct TokenRefresher: Sendable {
    /// Performs the refresh.
    public let refresh: @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Tokens

    /// Creates a refresher from a function.
    public init(_ refresh: @escaping @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Tokens) {
        self.refresh = refresh
    }

    /// `POST /v1/auth/refresh` with the stored refresh token (``AuthAPI/refresh(refreshToken:server:)``).
    public static let appAPI = TokenRefresher { credentials, server in
        try await AuthAPI.refresh(refreshToken: credentials.refreshToken, server: server)
    }
}

/// Which refresh failures end the session (clear the store, send `signedOut`) rather than
/// being reported as transient. Every failure this rule does not claim keeps the credentials.
public struct RefreshFailureRule: Sendable {
    /// The reason the session ends for `error`, or `nil` to keep the credentials.
    public let sessionEndingReason: @Sendable (_ error: any Error) -> SignOutReason?

    /// Creates a rule from a function.
    public init(_ sessionEndingReason: @escaping @Sendable (_ error: any Error) -> SignOutReason?) {
        self.sessionEndingReason = sessionEndingReason
    }

    /// The app's contract: HTTP 401 with `invalid_refresh_token` or `refresh_token_reused`.
    public static let appAPI = RefreshFailureRule.rejecting(status: 401, codes: [.invalidRefreshToken, .refreshTokenReused])

    /// A rule that ends the session when the server answers `status` with one of `codes`
    /// (any code when `codes` is `nil`).
    public static func rejecting(status: Int, codes: Set<ServerErrorCode>?) -> RefreshFailureRule {
        RefreshFailureRule { error in
            guard let error = error as? NetworkError, error.kind == .httpStatus, error.statusCode == status else { return nil }
            if let codes {
                guard let code = error.serverErrorCode, codes.contains(code) else { return nil }
            }
            return .refreshTokenRejected(error.serverErrorCode)
        }
    }
}
