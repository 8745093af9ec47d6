import AppRepository
@testable import CLISupport
import Foundation
import NetworkService
import Testing

/// Issue 33, item 2: no string a server chose reaches the terminal with control characters.
@Suite("Server text made safe for a terminal")
struct TerminalTextTests {
    /// Escape sequences a hostile server sends: OSC 52 (clipboard), OSC 0 (window title), clear
    /// screen, an 8-bit CSI, DEL, NUL, a right-to-left override, an isolate, a line separator.
    static let hostile = "\u{1B}]52;c;SGVsbG8=\u{07}\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{7F}\u{0}\u{202E}txt.exe\u{2066}\u{2028}"

    /// Whether `text` holds a character a terminal could obey.
    static func hasControl(_ text: String, allowingLineBreaks: Bool = false) -> Bool {
        text.unicodeScalars.contains { scalar in
            if allowingLineBreaks, scalar == "\n" { return false }
            return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x061C, 0x200E, 0x200F].contains(scalar.value)
                || (0x2028...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test("each control character is shown as \\u{…}; every other character is kept")
    func escapes() {
        #expect(TerminalText.safe("\u{1B}]52;c;SGVsbG8=\u{07}") == #"\u{1B}]52;c;SGVsbG8=\u{7}"#)
        #expect(TerminalText.safe("a\u{9B}31m\u{7F}\u{0}b") == #"a\u{9B}31m\u{7F}\u{0}b"#)
        #expect(TerminalText.safe("\u{202E}gpj.exe") == #"\u{202E}gpj.exe"#)
        #expect(TerminalText.safe("\u{061C}\u{200E}\u{200F}\u{2066}\u{2069}\u{2028}\u{2029}") == #"\u{61C}\u{200E}\u{200F}\u{2066}\u{2069}\u{2028}\u{2029}"#)
        #expect(!Self.hasControl(TerminalText.safe(Self.hostile)))
        let plain = "Zoë 🙂 漢字 \\u{1B} العربية café/path?x=1"
        #expect(TerminalText.safe(plain) == plain)
    }

    @Test("one line by default; keepingLineBreaks keeps \\n and tabs but still escapes CR")
    func lineBreaks() {
        #expect(TerminalText.safe("a\nb\tc\r") == #"a\u{A}b\u{9}c\u{D}"#)
        #expect(TerminalText.safe("a\nb\tc\r\u{1B}[2J", keepingLineBreaks: true) == "a\nb\tc\\u{D}\\u{1B}[2J")
    }

    @Test("--json output holds no raw control character and parses to the same strings")
    func json() throws {
        let value = ["name": Self.hostile, "plain": "Zoë 🙂"]
        let text = try Output.encode(value)
        #expect(!Self.hasControl(text, allowingLineBreaks: true), "\(text.debugDescription)")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(parsed == value)
    }

    @Test("a post, its author and a member from the server print without their control characters, lines kept")
    func humanFormat() {
        let author = Author(id: UUID(), nickname: "mallory\u{1B}]0;title\u{07}")
        let post = Post(id: 1, content: "line one\u{1B}[2J\nline two\u{9B}", isAnonymous: false, author: author, isMine: false,
                        likeCount: 0, commentCount: 0, isLiked: false, createdAt: Date(timeIntervalSince1970: 1_795_860_000))
        #expect(!Self.hasControl(post.humanText, allowingLineBreaks: true), "\(post.humanText.debugDescription)")
        #expect(post.humanText.contains("    line one\\u{1B}[2J\n    line two\\u{9B}"))
        #expect(post.humanText.contains(#"mallory\u{1B}]0;title\u{7}"#))
    }

    @Test("an error that quotes a server is made safe in the CLI's message")
    func errorMessages() {
        struct QuotingError: Error, CustomStringConvertible {
            var description: String { "the server said: \(TerminalTextTests.hostile)" }
        }
        #expect(!Self.hasControl(CLIError(QuotingError()).message))
        let network = NetworkError(kind: .httpStatus, method: .get, path: "/v1/me", statusCode: 400,
                                   serverMessage: "bad \u{1B}]52;c;SGVsbG8=\u{07} input")
        #expect(!Self.hasControl(CLIError(network).description, allowingLineBreaks: true))
    }
}
