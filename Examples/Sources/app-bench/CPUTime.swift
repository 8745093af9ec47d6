import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU seconds this process has used so far: user and system, every thread (the caller's,
/// URLSession's and SwiftNIO's alike), from `CLOCK_PROCESS_CPUTIME_ID` (nanoseconds, where
/// `getrusage` counts microseconds).
enum CPUTime {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Wall-clock seconds since some fixed moment.
enum WallTime {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds since 1970, comparable across processes.
    static func epoch() -> Double { Date().timeIntervalSince1970 }
}

/// The median of `values` (the upper one for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

/// `text` padded with spaces to `width` (left-aligned) or right-aligned when `right`.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let spaces = String(repeating: " ", count: width - count)
    return right ? spaces + text : text + spaces
}
