import Foundation
@testable import NetworkService
import Testing

/// The `retry-after` fuzz target found that reading a malformed HTTP-date through
/// swift-corelibs-foundation's `DateFormatter` leaks memory (LeakSanitizer: a CFCharacterSet
/// per string); HTTP-dates are now read by ``HTTPDate``, which allocates only the bytes.
@Suite("HTTP-dates (RFC 9110 §5.6.7), read without DateFormatter")
struct HTTPDateFuzzFindingTests {
    static let sunday = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("the three forms a recipient must accept name the same moment", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func threeForms(text: String) {
        #expect(HTTPDate.parse(text) == Self.sunday)
    }

    @Test("leap days, the end of a year and far years are computed, not looked up")
    func calendar() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Thu, 31 Dec 1970 23:59:59 GMT") == Date(timeIntervalSince1970: 31_535_999))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test("what is not an HTTP-date is nil, the fuzzer's leaking inputs among them", arguments: [
        "hour00:00", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 30 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:3x GMT", "Funday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov 32 08:49:37 1994", "", "\u{FFFD}\u{0301}, 06 Nov 1994 08:49:37 GMT",
    ])
    func notDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("Retry-After and the Date header read their dates with it")
    func headers() {
        let now = Self.sunday.addingTimeInterval(-120)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 120)
        #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 120)
        #expect(RetryAfter.seconds("hour00:00", now: now) == nil)
        #expect(HTTPResponse(statusCode: 200, headerFields: ["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]).date == Self.sunday)
    }
}
