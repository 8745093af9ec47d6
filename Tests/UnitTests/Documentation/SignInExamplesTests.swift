import Foundation
import Testing

/// Issue #20, item 8: the documented browser, device and client-credentials examples are
/// exactly what the conformance suite runs. Each is the body of a function of `OIDCAdopter`
/// (TestHarness/Sources/AppSDKHarness/OIDCAdopter.swift, which Tests/ConformanceTests calls against
/// django-oauth-toolkit); this checks, line for line, that docs/OTHER-SERVERS.md and the DocC
/// article show that body, and that the example stays about a dozen lines.
@Suite("The sign-in examples of the docs are the code the conformance suite runs")
struct SignInExamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of `function`'s body in OIDCAdopter.swift, without its `return` and indentation.
    static func body(of function: String) throws -> [String] {
        let lines = try read("TestHarness/Sources/AppSDKHarness/OIDCAdopter.swift").components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.contains("public static func \(function)(") })
        let open = try #require(lines[start...].firstIndex { $0.hasSuffix("{") })
        var body: [String] = []
        for line in lines[(open + 1)...] {
            if line == "    }" { break }
            body.append(line)
        }
        return body.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("return ") }.map { String($0.dropFirst(8)) }
    }

    /// The ```swift blocks of `text`, each as its lines.
    static func swiftBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if line == "```swift" { current = [] } else if line == "```", let block = current {
                blocks.append(block)
                current = nil
            } else if current != nil { current?.append(line) }
        }
        return blocks
    }

    static func contains(_ blocks: [[String]], _ body: [String]) -> Bool {
        blocks.contains { block in
            block.indices.contains { start in start + body.count <= block.count && Array(block[start..<start + body.count]) == body }
        }
    }

    @Test("each OIDCAdopter function's body appears verbatim in docs/OTHER-SERVERS.md and in its DocC article", arguments: [
        ("signInWithBrowser", "SigningInWithTheBrowser.md"),
        ("signInWithDevice", "SigningInOnAnotherDevice.md"),
        ("clientCredentialsSession", "ClientCredentials.md"),
    ])
    func examplesAreTheAdopter(function: String, article: String) throws {
        let body = try Self.body(of: function)
        #expect(body.count >= 3 && body.count <= 12, "about a dozen lines: \(body.count)")
        let guide = Self.swiftBlocks(try Self.read("docs/OTHER-SERVERS.md"))
        #expect(Self.contains(guide, body), "docs/OTHER-SERVERS.md no longer shows OIDCAdopter.\(function) as it is")
        let docc = Self.swiftBlocks(try Self.read("Sources/OAuthSignIn/OAuthSignIn.docc/\(article)"))
        #expect(Self.contains(docc, body), "\(article) no longer shows OIDCAdopter.\(function) as it is")
    }

    @Test("the guide leads with the browser and device flows, then client credentials; the password grant is a legacy note")
    func order() throws {
        let guide = try Self.read("docs/OTHER-SERVERS.md")
        let headings = ["### Sign in with the browser", "### Sign in with a code on another device",
                        "### A job acting as itself: client credentials", "### Legacy: the password grant"]
        let positions = try headings.map { heading in try #require(guide.range(of: heading)).lowerBound }
        #expect(positions == positions.sorted())
        #expect(guide.contains("RFC 9700"))
    }
}
