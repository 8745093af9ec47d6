import Foundation

/// What the routes share: the database, the auth service, the clock and (in test mode) the test state.
struct AppServices: Sendable {
    let database: Database
    let auth: AuthService
    let accessTokens: AccessTokens
    let clock: TimeSource
    let testMode: TestModeState?
    /// Sign-in and sign-up throttling; `nil` when off.
    let rateLimiter: RateLimiter?
    /// DPoP's proof checks and nonces; `nil` when DPoP is off.
    let dpop: DPoPGate?

    /// The current time in whole seconds (what the database and JSON store).
    var now: Date { clock.now().wholeSeconds }

    /// The middleware in front of every bearer route.
    var authMiddleware: AuthMiddleware { AuthMiddleware(accessTokens: accessTokens, database: database, dpop: dpop) }
}
