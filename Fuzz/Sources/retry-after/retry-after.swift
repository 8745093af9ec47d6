import Foundation
import FuzzSupport
@testable import NetworkService

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
/// Invariants: a delay is within 0 … one day; digits alone always give a delay, the one their
/// value says when it is at most a day; reading one header twice gives one answer; and an
/// IMF-fixdate written for now + k seconds (k from the input's first four bytes) reads as k,
/// within 0 … one day.
@main enum RetryAfterFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        let header = input.text
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let delay = RetryAfter.seconds(header, now: now)
        if let delay {
            require(delay.isFinite && delay >= 0 && delay <= RetryAfter.maximum, "delay \(delay) out of 0…\(RetryAfter.maximum)")
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            require(delay != nil, "digits only gave no delay")
            if trimmed.utf8.count <= 5, let value = Int(trimmed) {
                require(delay == min(TimeInterval(value), RetryAfter.maximum), "\(trimmed) gave \(String(describing: delay))")
            }
        }
        require(RetryAfter.seconds(header, now: now) == delay, "two reads of one header differ")
        checkWrittenDate(input, now: now)
    }

    static let writer: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    static func checkWrittenDate(_ input: FuzzInput, now: Date) {
        guard input.bytes.count >= 4 else { return }
        let offset = input.bytes.prefix(4).reduce(Int32(0)) { $0 << 8 | Int32($1) }
        let date = now.addingTimeInterval(TimeInterval(offset))
        let header = writer.string(from: date)
        let delay = RetryAfter.seconds(header, now: now)
        require(delay == min(max(TimeInterval(offset), 0), RetryAfter.maximum),
                "\(header) (now + \(offset) s) read as \(String(describing: delay))")
    }
}
