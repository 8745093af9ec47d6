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
    /// Anonymous sign-ins per client address within the window: each one creates a member and a
    /// session, like a sign-up.
    public var anonymousSignInsPerAddress: Int

    /// The defaults: 15 minutes; 10 failures per account, 100 per address; 20 sign-ups and 20
    /// anonymous sign-ins per address.
    public static let `default` = RateLimits(
        window: .seconds(900), signInFailuresPerAccount: 10, signInFailuresPerAddress: 100, signUpsPerAddress: 20,
        anonymousSignInsPerAddress: 20
    )

    /// Allowed windows, in seconds.
    public static let windowRange = 1...86_400
    /// Allowed counts.
    public static let countRange = 1...1_000_000

    /// Creates limits.
    public init(
        window: Duration, signInFailuresPerAccount: Int, signInFailuresPerAddress: Int, signUpsPerAddress: Int,
        anonymousSignInsPerAddress: Int = 20
    ) {
        self.window = window
        self.signInFailuresPerAccount = signInFailuresPerAccount
        self.signInFailuresPerAddress = signInFailuresPerAddress
        self.signUpsPerAddress = signUpsPerAddress
        self.anonymousSignInsPerAddress = anonymousSignInsPerAddress
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

    /// Events recorded by ``reserve(_:)`` that ``release(_:)`` can take back.
    struct Reservation: Sendable {
        let keys: [String]
        let date: Date
    }

    /// Records one event for every key at once, unless a key already holds its limit of events in
    /// the window: then nothing is recorded and it throws 429 `rate_limited`.
    ///
    /// Checking and recording in one step under the lock is what bounds the work behind a limit
    /// whatever the concurrency: with a limit of 10, at most 10 attempts per window get past it,
    /// even when 200 arrive at once (checking first and recording after the work let them all through).
    @discardableResult
    func reserve(_ keys: [(key: String, limit: Int)]) throws(APIError) -> Reservation {
        let now = clock.now()
        let window = self.window
        let wait: Int? = events.withLockedValue { events in
            if let wait = keys.compactMap({ Self.retryAfter(&events, key: $0.key, limit: $0.limit, now: now, window: window) }).max() {
                return wait
            }
            for (key, _) in keys { events[key, default: []].append(now) }
            if events.count > Self.sweepThreshold {
                events = events.compactMapValues { dates in
                    let kept = dates.filter { now.timeIntervalSince($0) < window }
                    return kept.isEmpty ? nil : kept
                }
            }
            return nil
        }
        if let wait { throw APIError.rateLimited(retryAfter: wait) }
        return Reservation(keys: keys.map(\.key), date: now)
    }

    /// Takes back the events of a reservation whose attempt turned out not to count (a right
    /// password). Equal dates are interchangeable, so it removes one event with that date per key.
    func release(_ reservation: Reservation) {
        events.withLockedValue { events in
            for key in reservation.keys {
                guard var dates = events[key], let index = dates.firstIndex(of: reservation.date) else { continue }
                dates.remove(at: index)
                events[key] = dates.isEmpty ? nil : dates
            }
        }
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
