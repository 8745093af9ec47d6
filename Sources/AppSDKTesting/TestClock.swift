public import Foundation
import TokenStore

/// A clock tests move by hand, so that expiry is tested without sleeping: give its `now` to
/// whatever takes a clock, such as the session engine's configuration.
///
/// ```swift
/// let clock = TestClock()
/// clock.advance(by: 901)   // the 900-second access token has expired
/// ```
public final class TestClock: Sendable {
    private let current: LockedValue<Date>

    /// A clock standing at `start` (by default a fixed moment in 2026, the same in every run).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_860_000)) {
        current = LockedValue(start)
    }

    /// The clock's time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or, with a negative value, back) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
