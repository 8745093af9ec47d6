import Foundation
import Testing

/// docs/OPENAPI.md shows what the tests run, and the committed generated client is the
/// client of the current Server/openapi.yaml.
@Suite("docs/OPENAPI.md and the generated client")
struct DocumentationTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // the package
        .deletingLastPathComponent().deletingLastPathComponent()                              // the repository

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The `operationId`s of the operations whose `security` is `[]` in `document`: a line
    /// scan of the document's layout (one `operationId:` and at most one `security:` per operation).
    static func unauthenticatedOperations(in document: String) -> [String] {
        var operations: [String] = []
        var current: String?
        for line in document.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("operationId:") {
                current = trimmed.dropFirst("operationId:".count).trimmingCharacters(in: .whitespaces)
            } else if trimmed == "security: []", let operation = current {
                operations.append(operation)
                current = nil
            }
        }
        return operations
    }

    @Test("every swift block of docs/OPENAPI.md occurs verbatim in OpenAPIAdopter.swift, which the tests and the probe run")
    func docsExampleIsWhatRuns() throws {
        let page = try Self.text("docs/OPENAPI.md")
        let blocks = page.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        let adopter = try Self.text("Integrations/OpenAPISession/Sources/OpenAPIAdopter/OpenAPIAdopter.swift")
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(adopter.contains(block), "docs/OPENAPI.md's block starting \"\(block.prefix(60))\" is not in OpenAPIAdopter.swift")
        }
    }

    @Test("the generated client was generated from the current Server/openapi.yaml (else run scripts/generate-openapi-client)")
    func generatedClientIsCurrent() throws {
        let document = try Self.text("Server/openapi.yaml")
        let generatedFrom = try Self.text("Integrations/OpenAPISession/Sources/AppAPIClient/openapi.yaml")
        #expect(document == generatedFrom, "Server/openapi.yaml changed since the client was generated: run scripts/generate-openapi-client")
    }

    @Test("the document's operations without security are the auth operations and the test-mode routes")
    func documentScan() throws {
        let operations = Self.unauthenticatedOperations(in: try Self.text("Server/openapi.yaml"))
        #expect(operations == ["signUp", "signIn", "signInAnonymously", "refresh",
                               "testCounters", "testReset", "testExpireAccessTokens", "testRefreshFaults"])
    }
}
