public import Foundation

/// The bounds every transport of the SDK applies to what it is given: how long a request may
/// take and how large a response may be.
///
/// `URLSessionTransport` and the AsyncHTTPClient transport pass their `timeout` and
/// `maximumResponseBytes` through these functions, so that no value (a flag's `1e18`, a NaN,
/// a negative size) traps in a conversion to an integer or a `Duration`, and a transport of
/// your own can do the same.
///
/// ```swift
/// TransportLimits.boundedTimeout(1e18)           // 86400: one day
/// TransportLimits.boundedTimeout(.nan)           // 30: the default
/// TransportLimits.boundedMaximumResponseBytes(-1) // 0
/// ```
public enum TransportLimits {
    /// 16 MiB: the default largest response body a transport accepts.
    ///
    /// The app's largest response, a page of 100 posts of at most 1 000 characters, is under
    /// 1 MiB; 16 MiB leaves room for other servers' larger answers while a server that never
    /// stops sending costs at most that much memory.
    public static let defaultMaximumResponseBytes = 16 * 1024 * 1024

    /// 30 seconds: the default time a whole request may take.
    public static let defaultTimeout: TimeInterval = 30

    /// One day, the longest timeout a transport accepts; a longer one is cut to it. No API
    /// request needs longer, and a day in nanoseconds still fits an `Int64` with room to spare.
    public static let maximumTimeout: TimeInterval = 86_400

    /// One millisecond, the shortest timeout a transport accepts; zero or a negative
    /// timeout becomes it (every request then times out at once).
    package static let minimumTimeout: TimeInterval = 0.001

    /// `timeout` within 0.001 s...``maximumTimeout``; NaN becomes ``defaultTimeout``.
    public static func boundedTimeout(_ timeout: TimeInterval) -> TimeInterval {
        guard !timeout.isNaN else { return defaultTimeout }
        return min(max(timeout, minimumTimeout), maximumTimeout)
    }

    /// `bytes`, or 0 when it is negative (then any response with a body is refused).
    public static func boundedMaximumResponseBytes(_ bytes: Int) -> Int {
        max(bytes, 0)
    }
}
