public import Foundation

/// The guard against refresh loops: how many *unexplained* refreshes a service allows in a
/// stretch of time before it stops with ``SessionError/Kind/refreshLimitExceeded``.
///
/// A refresh is explained, and never counted, when the token it replaces was due: it had
/// expired or was within the refresh leeway by its known expiry, or (expiry unknown) the
/// server had accepted it before refusing it. A refresh is counted when the server refused an
/// access token before it was due to expire: a server that refuses every new token would
/// otherwise make every call refresh. So a well-behaved client with short-lived tokens
/// refreshes as often as its tokens require, and a loop stops after a few rounds.
/// The default allows 5 counted refreshes in 30 seconds.
public struct RefreshWindow: Sendable, Hashable {
    /// Unexplained refreshes allowed within ``interval``.
    public var maximumRefreshes: Int
    /// The length of the window, in seconds.
    public var interval: TimeInterval

    /// Creates a window.
    public init(maximumRefreshes: Int = 5, interval: TimeInterval = 30) {
        self.maximumRefreshes = maximumRefreshes
        self.interval = interval
    }
}
