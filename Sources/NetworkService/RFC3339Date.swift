import Foundation

/// Reads an RFC 3339 date-time (`2026-11-22T10:00:00Z`, `2026-11-22T10:00:00.250+02:00`) by
/// hand, for ``JSONCoding``'s decoder.
///
/// What it accepts: `YYYY-MM-DD`, `T` (or `t`), `hh:mm:ss`, optional fractional seconds (`.`
/// and one or more digits), then `Z` (or `z`) or a numeric offset `+hh:mm` or `-hh:mm`, also
/// written `+hhmm` or `+hh`. Every field must be in range for its date: February 29 only in
/// a leap year, hour 0–23, minute 0–59, second 0–60 (60 for a leap second, read as the next
/// minute's first), offset up to 23:59.
///
/// Written by hand because `Date.ISO8601FormatStyle` (tried whole-second, then fractional)
/// cost two parsers' work per date, retained and released its shared calendar and time zone
/// objects on every date (a contention point between threads decoding at once), and rolled
/// impossible dates over instead of refusing them (`2026-02-29` read as March 1, `24:00` as
/// the next day).
enum RFC3339Date {
    /// The date `text` names, or `nil` when it is not an RFC 3339 date-time as above.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `date` as `YYYY-MM-DDThh:mm:ssZ` in the proleptic Gregorian calendar, the fraction of a
    /// second dropped (rounded down); `nil` outside the years 0000–9999 (or for a date that is
    /// not finite), which the form cannot write.
    static func format(_ date: Date) -> String? {
        let interval = date.timeIntervalSince1970.rounded(.down)
        guard interval.isFinite, interval >= -62_167_219_200, interval <= 253_402_300_799 else { return nil }
        let seconds = Int(interval)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let time = seconds - days * 86_400
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(time / 3600, 2) + ":"
            + digits(time / 60 % 60, 2) + ":" + digits(time % 60, 2) + "Z"
    }

    /// ``parse(_:)`` over the UTF-8 bytes.
    static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
        // YYYY-MM-DDThh:mm:ss is 19 bytes; a zone follows.
        guard b.count >= 20, b.count <= 64,
              let year = number(b, 0, 4), b[4] == dash, let month = number(b, 5, 2), b[7] == dash,
              let day = number(b, 8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = number(b, 11, 2), b[13] == colon, let minute = number(b, 14, 2), b[16] == colon,
              let second = number(b, 17, 2), hour < 24, minute < 60, second <= 60 else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, let digit = digit(b[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count, let offset = offsetSeconds(b, from: index),
              let seconds = CivilDate.secondsSince1970(
                  year: year, month: month, day: day, secondsOfDay: hour * 3600 + minute * 60 + second)
        else { return nil }
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }

    /// The zone from `index` to the end: `Z`, `z`, `±hh:mm`, `±hhmm` or `±hh`, as seconds east of UTC.
    private static func offsetSeconds(_ b: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        let length = b.count - index
        if length == 1, b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") { return 0 }
        let sign: Int
        switch b[index] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let hours = number(b, index + 1, 2), hours < 24 else { return nil }
        let minutes: Int?
        switch length {
        case 3: minutes = 0
        case 5: minutes = number(b, index + 3, 2)
        case 6: minutes = b[index + 3] == colon ? number(b, index + 4, 2) : nil
        default: minutes = nil
        }
        guard let minutes, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The decimal number of `count` digits at `start`; `nil` when one is not a digit.
    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            guard let digit = digit(b[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
}
