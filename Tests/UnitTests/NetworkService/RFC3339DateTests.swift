import Foundation
import NetworkService
import Testing

/// `JSONCoding.parse` reads RFC 3339 by hand; Foundation's `Date.ISO8601FormatStyle` is the
/// oracle for every date both accept, and the forms where they differ on purpose are listed.
@Suite("RFC 3339 dates are read by hand, as Foundation reads them, and impossible dates are refused")
struct RFC3339DateTests {
    /// What the decoder did before: the whole-second style, then the fractional one.
    static func foundation(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    @Test("UTC, offsets with and without a colon, fractions of any length and a leap second read as the instant they name",
          arguments: [
              ("2026-11-22T10:00:00Z", 1_795_341_600.0),
              ("2026-11-22t10:00:00z", 1_795_341_600.0),
              ("2026-11-22T10:00:00+02:00", 1_795_334_400.0),
              ("2026-11-22T10:00:00+0200", 1_795_334_400.0),
              ("2026-11-22T10:00:00+02", 1_795_334_400.0),
              ("2026-11-22T10:00:00-02:30", 1_795_350_600.0),
              ("2026-11-22T10:00:00-00:00", 1_795_341_600.0),
              ("2026-11-22T10:00:00.5Z", 1_795_341_600.5),
              ("2026-11-22T10:00:00.123456789Z", 1_795_341_600.123456789),
              ("2026-11-22T10:00:00.1234+01:00", 1_795_338_000.1234),
              ("2526-11-22T10:00:00.123456789+05:30", 17_573_776_200.123456789),
              ("2024-02-29T10:00:00Z", 1_709_200_800.0),
              ("2026-12-31T23:59:60Z", 1_798_761_600.0),
              ("1969-12-31T23:59:59Z", -1.0),
              ("0000-01-01T00:00:00Z", -62_167_219_200.0),
              ("9999-12-31T23:59:59Z", 253_402_300_799.0),
          ])
    func readsValidDates(text: String, seconds: Double) throws {
        let date = try #require(JSONCoding.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test("A date that does not exist, a missing or malformed part, or anything around the date is refused",
          arguments: [
              "2026-02-29T10:00:00Z", "2026-11-31T10:00:00Z", "2026-13-01T10:00:00Z", "2026-00-10T10:00:00Z",
              "2026-11-00T10:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T10:60:00Z", "2026-11-22T10:00:61Z",
              "2026-11-22T10:00:00+24:00", "2026-11-22T10:00:00+02:60", "2026-11-22T10:00:00+2:00",
              "2026-11-22T10:00:00+02:0", "2026-11-22T10:00:00", "2026-11-22T10:00Z", "2026-11-22 10:00:00Z",
              "20261122T100000Z", "02026-11-22T10:00:00Z", "2026-1-22T10:00:00Z", " 2026-11-22T10:00:00Z",
              "2026-11-22T10:00:00Z ", "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00,5Z", "2026-11-22T10:00:00GMT",
              "2026-11-22T10:00:00UTC", "2026-11-22T10:00:00ZZ", "2026-11-22T10:00:00+", "", "2026-11-22",
              "2026-11-22T1O:00:00Z", "２０２６-11-22T10:00:00Z", "2026-11-22T10:00:00." + String(repeating: "1", count: 50) + "Z",
          ])
    func refusesOtherText(text: String) {
        #expect(JSONCoding.parse(text) == nil)
    }

    @Test("2,000 random valid dates of the years 1583–9999 read as Foundation reads them")
    func agreesWithFoundationOnValidDates() throws {
        var random = SplitMix64(seed: 0x5EED_3339)
        for _ in 0..<2_000 {
            let text = Self.randomDate(&random)
            let ours = try #require(JSONCoding.parse(text), "\(text)")
            let theirs = try #require(Self.foundation(text), "\(text)")
            #expect(Self.agree(ours, theirs), "\(text)")
        }
    }

    @Test("Mutated dates: whatever is read is read as Foundation reads it")
    func mutatedDatesAgreeWithFoundationWhenRead() throws {
        var random = SplitMix64(seed: 0xD47E)
        let alphabet = Array("0123456789-:T+.Zz 9".utf8)
        var read = 0
        for _ in 0..<5_000 {
            var bytes = Array(Self.randomDate(&random).utf8)
            for _ in 0..<Int(random.next() % 3 + 1) {
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: index)
                }
                if bytes.isEmpty { break }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let ours = JSONCoding.parse(text) else { continue }
            read += 1
            // Before the Gregorian reform (1582) Foundation counts Julian days; RFC 3339 dates
            // are proleptic Gregorian.
            guard let year = Int(text.prefix(4)), year > 1582 else { continue }
            // Foundation refuses the lower-case z, offsets beyond its time zones' ±18:00,
            // and more than 9 fractional digits (RFC 3339 allows any number).
            guard let theirs = Self.foundation(text) else {
                #expect(text.hasSuffix("z") || Self.offsetMinutes(text).map { $0 > 18 * 60 } == true
                        || Self.fractionDigits(text) > 9, "\(text)")
                continue
            }
            #expect(Self.agree(ours, theirs), "\(text)")
        }
        #expect(read > 300)
    }

    @Test("Written dates: UTC, whole seconds rounded down, as Foundation writes them from 1583 on, and read back as written")
    func writesWhatItReads() throws {
        #expect(JSONCoding.format(Date(timeIntervalSince1970: 1_795_341_600.9)) == "2026-11-22T10:00:00Z")
        #expect(JSONCoding.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(JSONCoding.format(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00Z")
        #expect(JSONCoding.format(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
        // Before the Gregorian reform Foundation writes Julian dates; RFC 3339's are proleptic Gregorian.
        #expect(JSONCoding.format(Date(timeIntervalSince1970: -12_367_671_596)) == "1578-01-31T15:40:04Z")
        let foundation = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        var random = SplitMix64(seed: 0xF0_4A7)
        for _ in 0..<2_000 {
            let seconds = -62_167_219_200 + Double(random.next() % 315_569_520_000)
            let date = Date(timeIntervalSince1970: seconds)
            let written = JSONCoding.format(date)
            #expect(try #require(JSONCoding.parse(written), "\(written)").timeIntervalSince1970 == seconds, "\(written)")
            if seconds >= -12_212_553_600 {   // 1583-01-01
                #expect(written == date.formatted(foundation), "\(seconds)")
            }
        }
    }

    /// Whether two readings of one date agree: within a microsecond, or 4 units in the last
    /// place at their size (from about the year 2240 a `Double`'s step exceeds a microsecond,
    /// and Foundation rounds through its 2001 reference date, so its reading of a
    /// nanosecond fraction can lie a step or two from the nearest `Double`, which is ours).
    static func agree(_ ours: Date, _ theirs: Date) -> Bool {
        let a = ours.timeIntervalSince1970, b = theirs.timeIntervalSince1970
        return abs(a - b) <= max(1e-6, 4 * b.magnitude.ulp)
    }

    /// A valid date-time: years 1583–9999, any valid day, a fraction of 0–9 digits, `Z` or an
    /// offset between -12:00 and +14:00 in one of the three spellings.
    static func randomDate(_ random: inout SplitMix64) -> String {
        func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = pick(1583...9999), month = pick(1...12)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        var text = "\(year)-\(two(month))-\(two(pick(1...days)))T\(two(pick(0...23))):\(two(pick(0...59))):\(two(pick(0...59)))"
        let digits = pick(0...9)
        if digits > 0 { text += "." + (0..<digits).map { _ in String(pick(0...9)) }.joined() }
        let offset = pick(-12 * 4...14 * 4) * 15
        if offset == 0 || pick(0...3) == 0 { return text + "Z" }
        let sign = offset < 0 ? "-" : "+", hours = abs(offset) / 60, minutes = abs(offset) % 60
        switch pick(0...2) {
        case 0: return text + "\(sign)\(two(hours)):\(two(minutes))"
        case 1: return text + "\(sign)\(two(hours))\(two(minutes))"
        default: return minutes == 0 ? text + "\(sign)\(two(hours))" : text + "\(sign)\(two(hours)):\(two(minutes))"
        }
    }

    /// How many digits follow the decimal point.
    static func fractionDigits(_ text: String) -> Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: point)...].prefix { $0.isASCII && $0.isNumber }.count
    }

    /// The size of a trailing `±hh[:][mm]` offset in minutes.
    static func offsetMinutes(_ text: String) -> Int? {
        guard let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = text[text.index(after: sign)...].filter(\.isNumber)
        guard digits.count >= 2, let hours = Int(digits.prefix(2)) else { return nil }
        return hours * 60 + (digits.count >= 4 ? Int(digits.dropFirst(2).prefix(2)) ?? 0 : 0)
    }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
