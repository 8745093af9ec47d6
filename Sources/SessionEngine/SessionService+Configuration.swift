public import Foundation
public import NetworkService

extension SessionService {
    /// How a ``SessionService`` keeps its session alive. There is no default server: start
    /// from a preset that sets the refresh call, which refresh failures end the session, how
    /// errors are read and how a session is revoked, all together (``oauth2(_:)``,
    /// ``json(_:revoker:)``), or pass your own ``TokenRefresher``:
    ///
    /// ```swift
    /// var configuration = SessionService.Configuration.oauth2(tokenEndpoint: "/o/token/", clientID: "cli")
    /// configuration.refreshLeeway = 120
    /// configuration.now = { testClock.now }      // tests move time instead of sleeping
    /// ```
    public struct Configuration: Sendable {
        /// The largest margin, in seconds, by which a token is refreshed before it expires.
        /// The margin itself fits the time a refresh takes and the token's lifetime
        /// (``refreshTiming``); this caps it. Default 60.
        public var refreshLeeway: TimeInterval
        /// How far ahead of its expiry a token is refreshed (see ``RefreshTiming``).
        public var refreshTiming: RefreshTiming
        /// Which failed responses mean the access token is no good. Default: HTTP 401.
        public var authenticationFailurePolicy: AuthenticationFailurePolicy
        /// The refresh limit, which stops refresh loops. Default: 5 refreshes in 30 s of tokens
        /// the server refused before they were due to expire.
        public var refreshLimit: RefreshLimit
        /// The clock for expiry decisions. Default: the system clock.
        public var now: @Sendable () -> Date
        /// The refresh call. Required: a refresher of your own or a preset's.
        public var refresher: TokenRefresher
        /// Which refresh failures end the session; `nil` (the default) uses the refresher's
        /// own ``TokenRefresher/failureRule``, so a refresher of your own never pairs with
        /// another server's rule.
        public var refreshFailureRule: RefreshFailureRule?
        /// How sign-out ends the session on the server. Default ``SessionRevoker/localOnly``
        /// (nothing is sent; the store is cleared all the same).
        public var revoker: SessionRevoker
        /// How the API's error responses are read; `nil` (the default) keeps the server's
        /// own ``/NetworkService/Server/errorFormat``.
        public var errorFormat: ServerErrorFormat?
        /// When a refresh that failed without ending the session is tried again (``RefreshRetryPolicy``).
        /// Default: up to 3 attempts within 10 s, only when the request provably did not reach the
        /// server's token logic; the app's `.appAPI` preset also retries ambiguous failures.
        public var refreshRetry = RefreshRetryPolicy()
        /// Receives a ``SessionRecord`` for each decision of the engine. Default `nil`: nothing
        /// is built or formatted.
        public var observer: SessionObserver?
        /// How many calls run at once, and how long a call may wait for its turn: a call takes
        /// its access token only when its turn comes (``CallLimit``). Default: 64 calls, 120 s;
        /// `nil`: no limit.
        public var callLimit: CallLimit? = CallLimit()
        /// Binds new sessions to a DPoP key (RFC 9449): sign-ins through
        /// ``SessionService/startSession(accountID:signingInWith:)`` make a key of the kind it
        /// names and prove with it. Default `nil`: bearer sessions. A session stored with a key
        /// (made by another program) is signed for either way.
        public var dpop: DPoPConfiguration?
        /// Waits between refresh attempts, in seconds; throws `CancellationError` when cancelled.
        /// Default: `Task.sleep`. Tests replace it (and move their clock) instead of sleeping.
        public var sleep: @Sendable (_ seconds: TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 86_400) * 1_000_000_000))
        }

        /// Creates a configuration for the server `refresher` refreshes at; every other
        /// argument has the default described on its property.
        public init(
            refreshLeeway: TimeInterval = 60,
            refreshTiming: RefreshTiming = RefreshTiming(),
            authenticationFailurePolicy: AuthenticationFailurePolicy = .default,
            refreshLimit: RefreshLimit = RefreshLimit(),
            now: @escaping @Sendable () -> Date = { Date() },
            refresher: TokenRefresher,
            refreshFailureRule: RefreshFailureRule? = nil,
            revoker: SessionRevoker = .localOnly,
            errorFormat: ServerErrorFormat? = nil
        ) {
            self.refreshLeeway = refreshLeeway
            self.refreshTiming = refreshTiming
            self.authenticationFailurePolicy = authenticationFailurePolicy
            self.refreshLimit = refreshLimit
            self.now = now
            self.refresher = refresher
            self.refreshFailureRule = refreshFailureRule
            self.revoker = revoker
            self.errorFormat = errorFormat
        }

        /// The rule in force: ``refreshFailureRule``, else the refresher's.
        var effectiveRefreshFailureRule: RefreshFailureRule { refreshFailureRule ?? refresher.failureRule }
    }
}
