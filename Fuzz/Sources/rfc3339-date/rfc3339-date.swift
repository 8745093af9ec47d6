import Foundation
import FuzzSupport
import NetworkService

/// `JSONCoding.parse` (NetworkService's `RFC3339Date`): the dates of every JSON body a server sends.
/// Invariants: one answer per text; a date it reads lies within the years 0000–9999 give or
/// take a day of offset; from 1583 on (Foundation counts Julian days before the Gregorian
/// reform) it reads as Foundation's `ISO8601FormatStyle` reads it (within a microsecond or 4
/// units in the last place), and what only it reads has a
/// lower-case `t` or `z`, an offset beyond Foundation's ±18:00 or more than 9 fractional digits;
/// and a date written by `JSONCoding.format` (whole seconds from the input's first eight bytes)
/// reads back as that date.
@main enum RFC3339DateFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let earliest = -62_167_219_200.0 - 86_400   // 0000-01-01T00:00:00Z minus a day
    static let latest = 253_402_300_799.0 + 86_400 + 1  // 9999-12-31T23:59:59Z plus a day and a leap second

    static func fuzz(_ input: FuzzInput) {
        let text = input.text
        let date = JSONCoding.parse(text)
        require(JSONCoding.parse(text) == date, "two reads of \(text.debugDescription) differ")
        if let date {
            let seconds = date.timeIntervalSince1970
            require(seconds.isFinite && seconds >= earliest && seconds <= latest, "\(text.debugDescription) read as \(seconds)")
            compareWithFoundation(text, seconds)
        }
        checkWrittenDate(input)
    }

    static func compareWithFoundation(_ text: String, _ seconds: Double) {
        guard let year = Int(text.prefix(4)), year > 1582 else { return }
        let theirs = (try? Date(text, strategy: Date.ISO8601FormatStyle()))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        guard let theirs else {
            require(text.hasSuffix("z") || text.utf8.contains(UInt8(ascii: "t")) || offsetMinutes(text) > 18 * 60
                    || fractionDigits(text) > 9,
                    "\(text.debugDescription) read as \(seconds), Foundation refuses it")
            return
        }
        // Within a microsecond, or 4 units in the last place at this size: from about the year
        // 2240 a `Double`'s step exceeds a microsecond, and Foundation rounds through its 2001
        // reference date, so its reading can lie a step or two from the nearest `Double`.
        let theirSeconds = theirs.timeIntervalSince1970
        require(abs(theirSeconds - seconds) <= max(1e-6, 4 * theirSeconds.magnitude.ulp),
                "\(text.debugDescription) read as \(seconds), Foundation \(theirs.timeIntervalSince1970)")
    }

    /// The size of the trailing `±hh[:][mm]` offset in minutes; 0 without one.
    static func offsetMinutes(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        guard bytes.count > 19, let sign = bytes[19...].firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return 0 }
        let digits = bytes[(sign + 1)...].filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard digits.count >= 2, let hours = Int(String(decoding: digits.prefix(2), as: UTF8.self)) else { return 0 }
        let minutes = digits.count >= 4 ? Int(String(decoding: digits.dropFirst(2).prefix(2), as: UTF8.self)) ?? 0 : 0
        return hours * 60 + minutes
    }

    /// The digits after the decimal point.
    static func fractionDigits(_ text: String) -> Int {
        guard let point = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        return text.utf8[text.utf8.index(after: point)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
    }

    static func checkWrittenDate(_ input: FuzzInput) {
        guard input.bytes.count >= 8 else { return }
        let raw = input.bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // Whole seconds within 0001-01-01 … 9999-12-31 (Foundation writes years before 1 otherwise).
        let first = -62_135_596_800.0, span = 253_402_300_799.0 - first
        let seconds = (first + Double(raw % UInt64(span))).rounded(.down)
        let date = Date(timeIntervalSince1970: seconds)
        let written = JSONCoding.format(date)
        guard let read = JSONCoding.parse(written) else {
            require(false, "\(written) (written for \(seconds)) does not read")
            return
        }
        require(read.timeIntervalSince1970 == seconds, "\(written) (written for \(seconds)) read as \(read.timeIntervalSince1970)")
    }
}
