public import Foundation

/// How many token refreshes a service allows in a stretch of time before it stops with
/// ``SessionError/Kind/refreshLimitExceeded`` instead of refreshing again.
///
/// A server that refuses every new token would otherwise make every call refresh; the
/// window turns that into an error. The default allows 5 refreshes in 30 seconds.
public struct RefreshWindow: Sendable, Hashable {
    /// Refreshes allowed within ``interval``.
    public var maximumRefreshes: Int
    /// The length of the window, in seconds.
    public var interval: TimeInterval

    /// Creates a window.
    public init(maximumRefreshes: Int = 5, interval: TimeInterval = 30) {
        self.maximumRefreshes = maximumRefreshes
        self.interval = interval
    }
}
