public import Foundation

/// The time the sign-in flows read and wait by: when an ID token is checked against `exp`
/// and `iat`, when a device code expires, how long to wait between two polls of the token
/// endpoint. Tests pass a clock they move by hand, so that nothing sleeps for real:
///
/// ```swift
/// let clock = TestClock()
/// provider.clock = SignInClock(now: { clock.now }, sleep: { clock.advance(by: TimeInterval($0.components.seconds)) })
/// ```
public struct SignInClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// Waits for a duration; throws `CancellationError` when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock from its two functions.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system's clock, and `Task.sleep` (which ends at once when the task is cancelled).
    public static let system = SignInClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
