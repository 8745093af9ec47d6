public import Foundation
public import NetworkService

extension RepositoryService {
    /// How a ``RepositoryService`` keeps its session alive. Every field has a default that
    /// fits the app's own server.
    ///
    /// ```swift
    /// var configuration = RepositoryService.Configuration()
    /// configuration.refreshLeeway = 120
    /// configuration.now = { testClock.now }      // tests move time instead of sleeping
    /// ```
    public struct Configuration: Sendable {
        /// Refresh before a call when the access token expires within this many seconds (at most
        /// half the token's lifetime, so short-lived tokens do not refresh on every call). Default 60.
        public var refreshLeeway: TimeInterval
        /// Which failed responses mean the access token is no good. Default: HTTP 401.
        public var authenticationFailurePolicy: AuthenticationFailurePolicy
        /// How many refreshes are allowed in a stretch of time. Default: 5 in 30 s.
        public var refreshWindow: RefreshWindow
        /// The clock for expiry decisions. Default: the system clock.
        public var now: @Sendable () -> Date
        /// The refresh call. Default: `POST /v1/auth/refresh`.
        public var refresher: TokenRefresher
        /// Which refresh failures end the session. Default: 401 `invalid_refresh_token` or
        /// `refresh_token_reused`.
        public var refreshFailureRule: RefreshFailureRule

        /// Creates a configuration.
        public init(
            refreshLeeway: TimeInterval = 60,
            authenticationFailurePolicy: AuthenticationFailurePolicy = .default,
            refreshWindow: RefreshWindow = RefreshWindow(),
            now: @escaping @Sendable () -> Date = { Date() },
            refresher: TokenRefresher = .appAPI,
            refreshFailureRule: RefreshFailureRule = .appAPI
        ) {
            self.refreshLeeway = refreshLeeway
            self.authenticationFailurePolicy = authenticationFailurePolicy
            self.refreshWindow = refreshWindow
            self.now = now
            self.refresher = refresher
            self.refreshFailureRule = refreshFailureRule
        }
    }
}
