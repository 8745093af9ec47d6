import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
///
/// The delay is at most ``maximum``: a larger one (`9223372036854775807`, a date in the
/// year 9999) is cut to it, so arithmetic on it (rounding, converting to `Int` or
/// `Duration`) never overflows.
enum RetryAfter {
    /// One day. A longer wait than that means "not today" to a client as much as a day
    /// does, and keeps the delay far from where conversions to integers trap.
    static let maximum: TimeInterval = 86_400

    /// The delay in seconds from `now`, within 0...``maximum``; `nil` when there is no
    /// header or it is not valid.
    static func seconds(_ header: String?, now: Date) -> TimeInterval? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // delay-seconds: digits only; more than an Int holds is more than a day.
            return bounded(Int(text).map(TimeInterval.init) ?? maximum)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return bounded(date.timeIntervalSince(now))
    }

    /// `seconds` within 0...``maximum``; `nil` for NaN.
    static func bounded(_ seconds: TimeInterval) -> TimeInterval? {
        guard !seconds.isNaN else { return nil }
        return min(max(seconds, 0), maximum)
    }
}
