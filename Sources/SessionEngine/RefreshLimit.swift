public import Foundation

/// The refresh limit, which stops refresh loops: how many *unexplained* refreshes a service
/// allows within an interval before it stops with ``SessionError/Kind/refreshLimitExceeded``.
///
/// A refresh is explained, and never counted, when the token it replaces was due: it had
/// expired or was within the refresh leeway by its known expiry, or (expiry unknown) the
/// server had accepted it before refusing it. A refresh is counted when the server refused an
/// access token before it was due to expire: a server that refuses every new token would
/// otherwise make every call refresh. So a well-behaved client with short-lived tokens
/// refreshes as often as its tokens require, and a loop stops after a few rounds.
/// The default allows 5 counted refreshes in 30 seconds.
public struct RefreshLimit: Sendable, Hashable {
    /// Unexplained refreshes allowed within ``interval``.
    public var maximumRefreshes: Int
    /// The interval the refreshes are counted over (a sliding one), in seconds.
    public var interval: TimeInterval

    /// Creates a refresh limit.
    public init(maximumRefreshes: Int = 5, interval: TimeInterval = 30) {
        self.maximumRefreshes = maximumRefreshes
        self.interval = interval
    }

    /// The error for a refresh this limit refused: the interval held `count` unexplained
    /// refreshes, and the next may come in `retryIn` seconds.
    func exceeded(count: Int, retryIn: TimeInterval) -> SessionError {
        SessionError(.refreshLimitExceeded, detail:
            "the server refused \(count) access tokens before they were due to expire within the last "
            + "\(Self.format(interval)) s; refreshing again in \(Self.format(retryIn)) s at the earliest")
    }

    private static func format(_ seconds: TimeInterval) -> String {
        String(format: "%.0f", max(0, seconds.rounded(.up)))
    }
}
