import NetworkService
public import SessionEngine
import TokenStore

// The app's own server, as a preset of the session engine: its refresh call, which refresh
// failures end the session, and its sign-out. `RepositoryService(server:tokenStore:)` uses it.

extension TokenRefresher {
    /// `POST /v1/auth/refresh` with the stored refresh token (``AuthAPI/refresh(refreshToken:server:)``);
    /// the session ends on 401 `invalid_refresh_token` or `refresh_token_reused`.
    public static let appAPI = TokenRefresher(failureRule: .appAPI) { credentials, server in
        try await AuthAPI.refresh(refreshToken: credentials.refreshToken, server: server)
    }
}

extension RefreshFailureRule {
    /// The app's contract: HTTP 401 with `invalid_refresh_token` or `refresh_token_reused`.
    public static let appAPI = RefreshFailureRule.rejecting(status: 401, codes: [.invalidRefreshToken, .refreshTokenReused])
}

extension SessionRevoker {
    /// `POST /v1/auth/sign-out` (``AuthAPI/signOut(refreshToken:server:accessToken:)``): ends the session family.
    public static let appAPI = SessionRevoker(usesAccessToken: true) { credentials, server in
        try await AuthAPI.signOut(refreshToken: credentials.refreshToken, server: server,
                                  accessToken: credentials.accessToken)
    }
}

extension SessionService.Configuration {
    /// The app's own server: `TokenRefresher.appAPI`,
    /// `RefreshFailureRule.appAPI`, `SessionRevoker.appAPI`
    /// and the server's standard error format; refresh failures whose outcome is ambiguous are
    /// retried (`RefreshRetryPolicy.serverForgivesLostResponse`: the server forgives a refresh
    /// token presented again within its 30-second reuse grace period); every other setting at its default.
    public static var appAPI: Self {
        var configuration = Self(refresher: .appAPI, revoker: .appAPI)
        configuration.refreshRetry.serverForgivesLostResponse = true
        return configuration
    }
}
