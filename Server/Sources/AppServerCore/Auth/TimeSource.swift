public import Foundation

/// Where the server reads the time, injected so that expiry can be tested without sleeping.
public struct TimeSource: Sendable {
    /// The current time.
    public let now: @Sendable () -> Date

    /// A time source reading `now`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let system = TimeSource { Date() }
}
