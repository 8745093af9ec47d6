import Foundation

/// Reads an HTTP-date (RFC 9110 §5.6.7) without `DateFormatter`: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must also accept,
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
///
/// Written by hand because swift-corelibs-foundation's `DateFormatter.date(from:)` leaks
/// memory on some strings that are not dates (found by the `retry-after` fuzz target), so a
/// server could make a client leak with every malformed `Retry-After` or `Date` header; it
/// also allocated a formatter per header.
enum HTTPDate {
    /// The date `text` names, or `nil` when it is not an HTTP-date (or a field is out of
    /// range: month day 1–31 for the month, hour 0–23, minute 0–59, second 0–60).
    static func parse(_ text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 64 else { return nil }
        return imfFixdate(bytes) ?? rfc850(bytes) ?? asctime(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ b: [UInt8]) -> Date? {
        guard b.count == 29, dayName(b[0..<3]) != nil, b[3] == UInt8(ascii: ","), b[4] == space,
              let day = number(b[5..<7]), b[7] == space, let month = month(b[8..<11]), b[11] == space,
              let year = number(b[12..<16]), b[16] == space, let time = time(b[17..<25]),
              b[25] == space, b[26..<29].elementsEqual("GMT".utf8) else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`: a two-digit year more than 50 years in the future
    /// is in the past century (RFC 9110 §5.6.7).
    private static func rfc850(_ b: [UInt8]) -> Date? {
        guard let comma = b.firstIndex(of: UInt8(ascii: ",")), comma >= 6, comma <= 9,
              longDayNames.contains(where: { $0.utf8.elementsEqual(b[0..<comma]) }) else { return nil }
        let rest = Array(b[(comma + 1)...])
        guard rest.count == 23, rest[0] == space, let day = number(rest[1..<3]), rest[3] == dash,
              let month = month(rest[4..<7]), rest[7] == dash, let shortYear = number(rest[8..<10]),
              rest[10] == space, let time = time(rest[11..<19]), rest[19] == space,
              rest[20..<23].elementsEqual("GMT".utf8) else { return nil }
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        var year = thisYear / 100 * 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day padded with a space, or two digits).
    private static func asctime(_ b: [UInt8]) -> Date? {
        guard b.count == 24, dayName(b[0..<3]) != nil, b[3] == space, let month = month(b[4..<7]), b[7] == space,
              b[10] == space, let time = time(b[11..<19]), b[19] == space, let year = number(b[20..<24]) else { return nil }
        let day: Int?
        if b[8] == space { day = number(b[9..<10]) } else { day = number(b[8..<10]) }
        guard let day else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    private static let space = UInt8(ascii: " "), dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func dayName(_ b: ArraySlice<UInt8>) -> Int? {
        dayNames.firstIndex { $0.utf8.elementsEqual(b) }
    }

    /// 1–12.
    private static func month(_ b: ArraySlice<UInt8>) -> Int? {
        monthNames.firstIndex { $0.utf8.elementsEqual(b) }.map { $0 + 1 }
    }

    /// Decimal digits only.
    private static func number(_ b: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in b {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return b.isEmpty ? nil : value
    }

    /// `HH:MM:SS` as seconds since midnight.
    private static func time(_ b: ArraySlice<UInt8>) -> Int? {
        let b = Array(b)
        guard b.count == 8, b[2] == colon, b[5] == colon, let hour = number(b[0..<2]), let minute = number(b[3..<5]),
              let second = number(b[6..<8]), hour < 24, minute < 60, second <= 60 else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
        CivilDate.date(year: year, month: month, day: day, secondsOfDay: time)
    }
}
