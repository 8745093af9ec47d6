public import Foundation

/// When a ``SessionService`` refreshes an access token ahead of its expiry: by a margin
/// that fits the time a refresh actually takes and the token's lifetime, so that a session
/// makes close to the minimum number of refreshes (one per lifetime) while no call presents
/// an expired token.
///
/// The margin is the time a refresh takes here (measured, smoothed) times
/// ``refreshDurationMultiple``, at least ``minimumMargin``, and at most
/// ``maximumShareOfLifetime`` of the token's lifetime and the configuration's
/// ``SessionService/Configuration/refreshLeeway``:
///
/// | access token lifetime | refresh takes | margin | refreshes ÷ minimum |
/// |---|---|---|---|
/// | 5 s | 20 ms | 0.25 s | 1.05 |
/// | 60 s | 20 ms | 0.25 s | 1.004 |
/// | 900 s | 300 ms | 0.9 s | 1.001 |
///
/// The expiry itself is counted on this device's clock from the moment the refresh request
/// was sent, so the time the answer took is already on the safe side.
///
/// ```swift
/// var configuration = SessionService.Configuration.oauth2(tokenEndpoint: "/o/token/", clientID: "cli")
/// configuration.refreshTiming.minimumMargin = 2      // a slow, far-away server
/// ```
public struct RefreshTiming: Sendable, Equatable {
    /// The smallest margin, in seconds: covers the time from taking a token to the server
    /// checking it (scheduling, a busy machine, the request's way there). Default 0.25.
    public var minimumMargin: TimeInterval
    /// The margin as a multiple of the time a refresh takes (a round trip to the server).
    /// Default 3.
    public var refreshDurationMultiple: Double
    /// The largest margin as a share of the token's lifetime. Default 0.1: a token is used
    /// for at least 90 % of its life, so refreshes stay within 1.11× of the minimum.
    public var maximumShareOfLifetime: Double
    /// The refresh duration assumed before one was measured, in seconds. Default 0.25.
    public var assumedRefreshDuration: TimeInterval

    /// Creates a timing; every argument has the default described on its property.
    public init(minimumMargin: TimeInterval = 0.25, refreshDurationMultiple: Double = 3,
                maximumShareOfLifetime: Double = 0.1, assumedRefreshDuration: TimeInterval = 0.25) {
        self.minimumMargin = minimumMargin
        self.refreshDurationMultiple = refreshDurationMultiple
        self.maximumShareOfLifetime = maximumShareOfLifetime
        self.assumedRefreshDuration = assumedRefreshDuration
    }

    /// How many seconds before its expiry a token is refreshed.
    /// - Parameters:
    ///   - lifetime: The token's lifetime, when known.
    ///   - refreshDuration: How long a refresh takes here (smoothed); `nil` before the first.
    ///   - leeway: The largest margin (``SessionService/Configuration/refreshLeeway``).
    package func margin(lifetime: TimeInterval?, refreshDuration: TimeInterval?, leeway: TimeInterval) -> TimeInterval {
        let wanted = max(minimumMargin, refreshDurationMultiple * (refreshDuration ?? assumedRefreshDuration))
        var margin = min(leeway, wanted)
        if let lifetime, lifetime > 0 {
            margin = min(margin, lifetime * maximumShareOfLifetime)
        }
        return max(0, margin)
    }

    /// The smoothed refresh duration after one more measurement (an exponentially weighted
    /// average that gives the newest refresh 30 %).
    package static func smoothedDuration(_ previous: TimeInterval?, adding measured: TimeInterval) -> TimeInterval {
        let measured = max(0, measured)
        guard let previous else { return measured }
        return previous * 0.7 + measured * 0.3
    }
}
