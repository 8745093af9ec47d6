import Foundation
import NetworkService
import Testing

/// Findings of the www-authenticate fuzz target (Fuzz/README.md), each with the input it found.
@Suite("WWW-Authenticate challenges, as the fuzzer found them")
struct BearerChallengeFuzzFindingTests {
    /// Found by `www-authenticate` (its round trip): a quoted value starting with a combining
    /// mark (U+0301) made the opening quote and the mark one grapheme cluster, so the parser,
    /// which compared `Character`s, did not see the quote and read `"́expired"` with its quotes.
    /// A value ending with a prepend character (U+0600) hid the closing quote the same way.
    @Test("a quoted value that starts with a combining mark or ends with a prepend character reads as sent",
          arguments: [
              ("\u{301}expired", "invalid_token"),   // the fuzzer's input
              ("expired\u{600}", "invalid_token"),
              ("a \\\"b\\\\\u{301}", "invalid_token"),
          ])
    func graphemeClustersAroundQuotes(description: String, code: String) throws {
        let header = "Bearer error_description=\"\(description)\", error=\"\(code)\", realm=\"api\""
        let response = HTTPResponse(statusCode: 401, headerFields: ["WWW-Authenticate": header])
        let details = try #require(ServerErrorFormat.bearerChallenge.decode(response, Data()))
        let unescaped = description.replacingOccurrences(of: "\\\\", with: "\u{0}").replacingOccurrences(of: "\\", with: "")
            .replacingOccurrences(of: "\u{0}", with: "\\")
        #expect(details.code.rawValue == code)
        #expect(details.message.map { Array($0.unicodeScalars) } == Array(unescaped.unicodeScalars))
    }
}
