public import Foundation

/// When a refresh that failed without ending the session is tried again, inside the same
/// exclusive section and single flight, with the same refresh token (``SessionService/Configuration/refreshRetry``).
///
/// - A request that provably did not reach the server's token logic (no connection, 429, 503
///   with `Retry-After`: ``RefreshFailure/Delivery/notDelivered``) is retried on any server.
/// - A request whose outcome is ambiguous (a timeout, a connection dropped after sending, 408,
///   another 5xx, garbage: ``RefreshFailure/Delivery/ambiguous``) may have rotated the token;
///   presenting it again is reuse, which ends the session on a server without a reuse grace
///   period. It is retried only when ``serverForgivesLostResponse`` says the server gives one.
/// - A rejection is never retried; neither is a cancelled refresh.
///
/// Attempts wait `initialDelay × 2ⁿ` (at most ``maximumDelay``), less up to ``jitter`` of it at
/// random, and at least the server's `Retry-After`. No attempt starts once ``maximumTotalTime``
/// would be exceeded, nor once every caller waiting for the refresh has stopped waiting (cancelled,
/// or past its own deadline).
///
/// ```swift
/// var configuration = SessionService.Configuration.oauth2(oauth)
/// configuration.refreshRetry.serverForgivesLostResponse = true  // the server has a reuse grace period
/// ```
public struct RefreshRetryPolicy: Sendable {
    /// The most attempts in all, the first included; 1 turns retrying off. Kept within 1...10. Default 3.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds. Default 0.5.
    public var initialDelay: TimeInterval
    /// The longest wait between attempts, `Retry-After` aside, in seconds. Default 4.
    public var maximumDelay: TimeInterval
    /// The longest time from the first attempt to the start of the last, in seconds. Default 10.
    public var maximumTotalTime: TimeInterval
    /// The share of each wait taken off at random (0: none, 1: up to all), so that clients that
    /// failed together do not retry together. Default 0.25.
    public var jitter: Double
    /// Whether the server forgives a refresh token presented again after a lost response (a
    /// reuse grace period), which makes retrying an ambiguous failure safe. Default `false`;
    /// the app's `.appAPI` preset sets it (its server forgives for 30 s).
    public var serverForgivesLostResponse: Bool
    /// A random number in 0..<1 for the jitter; tests replace it.
    public var random: @Sendable () -> Double

    /// Creates a policy; every argument has the default described on its property.
    public init(maximumAttempts: Int = 3, initialDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 4,
                maximumTotalTime: TimeInterval = 10, jitter: Double = 0.25, serverForgivesLostResponse: Bool = false,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumTotalTime = maximumTotalTime
        self.jitter = jitter
        self.serverForgivesLostResponse = serverForgivesLostResponse
        self.random = random
    }

    /// No retries: every refresh failure reaches the caller at once.
    public static let never = RefreshRetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt` (2 for the first retry) after `failure`, `elapsed`
    /// seconds after the first attempt started; `nil` when it must not be retried.
    func delay(beforeAttempt attempt: Int, after failure: RefreshFailure, elapsed: TimeInterval) -> TimeInterval? {
        guard attempt >= 2, attempt <= min(max(maximumAttempts, 1), 10) else { return nil }
        switch failure.delivery {
        case .notDelivered: break
        case .ambiguous: guard serverForgivesLostResponse else { return nil }
        default: return nil
        }
        let initial = Self.seconds(initialDelay), cap = Self.seconds(maximumDelay)
        let backoff = min(cap, initial * pow(2, Double(min(attempt - 2, 20))))
        let unit = random()
        let share = min(max(jitter.isFinite ? jitter : 0, 0), 1) * (unit.isFinite ? min(max(unit, 0), 1) : 0)
        let delay = max(backoff * (1 - share), failure.retryAfter ?? 0)
        let elapsed = elapsed.isFinite ? max(elapsed, 0) : .infinity
        guard elapsed + delay <= Self.seconds(maximumTotalTime) else { return nil }
        return delay
    }

    /// `value` within 0 seconds to one day (NaN: 0).
    private static func seconds(_ value: TimeInterval) -> TimeInterval {
        value.isNaN ? 0 : min(max(value, 0), 86_400)
    }
}
