@testable import AsyncHTTPClientTransport
import Testing

/// How the transport reads an announced `Content-Length` before it accepts a body.
@Suite("A Content-Length, as the AsyncHTTPClient transport reads it")
struct ContentLengthTests {
    @Test("digits are the length, with the spaces and tabs around them ignored", arguments: [
        ("0", 0), ("1234", 1234), ("  42", 42), ("42\t", 42), (" \t 7 \t", 7),
    ])
    func digits(_ text: String, _ expected: Int) {
        #expect(BodyCollector.length(text) == expected)
    }

    @Test("anything but digits announces no length", arguments: ["", "   ", "12a", "-1", "+5", "1 2", "0x10", "١٢"])
    func notDigits(_ text: String) {
        #expect(BodyCollector.length(text) == nil)
    }

    @Test("more digits than an Int holds is larger than any limit")
    func overflow() {
        #expect(BodyCollector.length("99999999999999999999999") == .max)
        #expect(BodyCollector.length(" 9223372036854775807 ") == Int.max)
    }
}
