import Foundation
import NetworkService
import Testing

/// Findings of the query-path fuzz target (Fuzz/README.md), each with the input it found.
@Suite("Query lists, as the fuzzer found them")
struct QueryListFuzzFindingTests {
    /// Found by `query-path`: a space followed by U+07AC (a combining Thaana vowel sign) is one
    /// grapheme cluster, so a check by `Character` did not see the space, and the item went out
    /// unquoted; a server reading the list splits and trims by characters it knows, not by
    /// clusters.
    @Test("a list item whose space, comma, bracket, quote or backslash carries a combining mark is still quoted",
          arguments: [
              ("\u{e9}t# \u{7AC}x", #""\#u{e9}t# \#u{7AC}x""#),   // the fuzzer's input
              ("a,\u{301}b", #""a,\#u{301}b""#),
              ("(\u{301}", #""(\#u{301}""#),
              ("\"\u{301}", #""\"\#u{301}""#),
              ("\\\u{301}", #""\\\#u{301}""#),
          ])
    func combiningMarkAfterSpecialCharacter(item: String, quoted: String) throws {
        let rendered = QueryParameter.render([.in("il", ["e", QueryValue(item)])])
        let decoded = try #require(rendered.removingPercentEncoding)
        #expect(Array(decoded.unicodeScalars) == Array("il=in.(e,\(quoted))".unicodeScalars))
    }
}
