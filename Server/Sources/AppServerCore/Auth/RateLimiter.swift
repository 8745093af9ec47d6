import Foundation
import NIOConcurrencyHelpers

/// The sign-in and sign-up throttling limits; `nil` in ``ServerConfiguration/rateLimits`` turns
/// throttling off.
public struct RateLimits: Sendable, Equatable {
    /// The sliding window every limit counts in.
    public var window: Duration
    /// Wrong-password sign-ins per account (email) within the window; the next sign-in for that
    /// account, even with the right password, is 429 until the oldest failure leaves the window.
    public var signInFailuresPerAccount: Int
    /// Failed sign-ins (wrong password or unknown email) per client address within the window.
    public var signInFailuresPerAddress: Int
    /// Sign-ups (requests that passed validation) per client address within the window.
    public var signUpsPerAddress: Int

    /// The defaults: 15 minutes; 10 failures per account, 100 per address; 20 sign-ups per address.
    public static let `default` = RateLimits(
        window: .seconds(900), signInFailuresPerAccount: 10, signInFailuresPerAddress: 100, signUpsPerAddress: 20
    )

    /// Allowed windows, in seconds.
    public static let windowRange = 1...86_400
    /// Allowed counts.
    public static let countRange = 1...1_000_000

    /// Creates limits.
    public init(window: Duration, signInFailuresPerAccount: Int, signInFailuresPerAddress: Int, signUpsPerAddress: Int) {
        self.window = window
        self.signInFailuresPerAccount = signInFailuresPerAccount
        self.signInFailuresPerAddress = signInFailuresPerAddress
        self.signUpsPerAddress = signUpsPerAddress
    }
}

/// Counts events per key in a sliding window, in memory (limits start over when the server restarts).
final class RateLimiter: Sendable {
    let limits: RateLimits
    private let clock: TimeSource
    private let events = NIOLockedValueBox<[String: [Date]]>([:])
    /// Above this many keys, expired ones are swept (bounds memory under address spraying).
    private static let sweepThreshold = 10_000

    init(limits: RateLimits, clock: TimeSource) {
        self.limits = limits
        self.clock = clock
    }

    private var window: TimeInterval { limits.window.timeInterval }

    /// Throws 429 `rate_limited` when any key already holds its limit of events in the window.
    func check(_ keys: [(key: String, limit: Int)]) throws(APIError) {
        let now = clock.now()
        let wait = events.withLockedValue { events in
            keys.compactMap { Self.retryAfter(&events, key: $0.key, limit: $0.limit, now: now, window: window) }.max()
        }
        if let wait { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// Records one event for every key.
    func record(_ keys: [String]) {
        let now = clock.now()
        let window = self.window
        events.withLockedValue { events in
            for key in keys { events[key, default: []].append(now) }
            if events.count > Self.sweepThreshold {
                events = events.compactMapValues { dates in
                    let kept = dates.filter { now.timeIntervalSince($0) < window }
                    return kept.isEmpty ? nil : kept
                }
            }
        }
    }

    /// Checks and records in one step (nothing is recorded when it throws).
    func checkAndRecord(_ key: String, limit: Int) throws(APIError) {
        let now = clock.now()
        let window = self.window
        let wait: Int? = events.withLockedValue { events in
            if let wait = Self.retryAfter(&events, key: key, limit: limit, now: now, window: window) { return wait }
            events[key, default: []].append(now)
            return nil
        }
        if let wait { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// Drops the key's expired events; when `limit` remain, the whole seconds until one expires.
    private static func retryAfter(_ events: inout [String: [Date]], key: String, limit: Int, now: Date, window: TimeInterval) -> Int? {
        guard var dates = events[key] else { return nil }
        dates.removeAll { now.timeIntervalSince($0) >= window }
        events[key] = dates.isEmpty ? nil : dates
        guard dates.count >= limit else { return nil }
        let frees = dates[dates.count - limit].addingTimeInterval(window)
        return max(1, Int(frees.timeIntervalSince(now).rounded(.up)))
    }
}
