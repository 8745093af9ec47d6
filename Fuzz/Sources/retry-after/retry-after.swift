import Foundation
import FuzzSupport
@testable import NetworkService

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
/// Invariants: a delay is within 0 … one day; digits alone always give a delay, the one their
/// value says when it is at most a day; reading one header twice gives one answer.
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
    }
}
