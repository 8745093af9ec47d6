import Foundation
import Testing

/// docs/OPENAPI.md shows what the tests run, and the committed generated client is the
/// client of the current Server/openapi.yaml's operations that the tests call.
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

    /// The folder of the generated client, its document and its SHA256SUMS.
    static let generatedFolder = "Integrations/OpenAPISession/Sources/AppAPIClient"

    /// `document` in blocks: a line indented by at most four spaces (a top-level key, a path, a
    /// component section, an operation, a component entry) starts one, and the lines below it
    /// that are blank or indented further belong to it.
    static func blocks(of document: String) -> [String] {
        var blocks: [[Substring]] = []
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            let indentation = line.prefix(while: { $0 == " " }).count
            let blank = line.allSatisfy { $0 == " " }
            if blocks.isEmpty || (!blank && indentation <= 4) {
                blocks.append([line])
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        return blocks.map { $0.joined(separator: "\n").trimmingCharacters(in: .newlines) }.filter { !$0.isEmpty }
    }

    @Test("the generated client's document is the current Server/openapi.yaml, cut to some operations (else run scripts/generate-openapi-client)")
    func generatedFromTheCurrentDocument() throws {
        let document = try Self.text("Server/openapi.yaml")
        let subset = try Self.text("\(Self.generatedFolder)/openapi.yaml")
        let blocks = Self.blocks(of: subset)
        #expect(blocks.count > 20, "the subset has \(blocks.count) blocks")
        #expect(subset.contains("operationId: getMe"))
        let gone = blocks.filter { !document.contains($0) }
        #expect(gone.isEmpty, "\(gone.count) blocks of \(Self.generatedFolder)/openapi.yaml are no longer in Server/openapi.yaml: run scripts/generate-openapi-client\n\(gone.joined(separator: "\n"))")
    }

    @Test("the generated files and their document are the ones SHA256SUMS lists (else run scripts/generate-openapi-client)")
    func generatedFilesMatchTheirSums() throws {
        let folder = Self.root.appendingPathComponent(Self.generatedFolder)
        let sums = try Self.text("\(Self.generatedFolder)/SHA256SUMS")
        let listed = Set(sums.split(separator: "\n").compactMap { $0.split(separator: " ").last.map { String($0.dropFirst($0.hasPrefix("./") ? 2 : 0)) } })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") })
        #expect(!present.isEmpty)
        #expect(present.isSubset(of: listed), "generated files not in SHA256SUMS: \(present.subtracting(listed).sorted())")
        #expect(listed.isSuperset(of: ["openapi.yaml", "openapi-generator-config.yaml"]))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(Linux)
        process.arguments = ["sha256sum", "--check", "--quiet", "SHA256SUMS"]
        #else
        process.arguments = ["shasum", "-a", "256", "--check", "--quiet", "SHA256SUMS"]
        #endif
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the generated client differs from SHA256SUMS: run scripts/generate-openapi-client\n\(printed)")
    }

    @Test("the document's operations without security are the auth operations and the test-mode routes")
    func documentScan() throws {
        let operations = Self.unauthenticatedOperations(in: try Self.text("Server/openapi.yaml"))
        #expect(operations == ["signUp", "signIn", "signInAnonymously", "refresh",
                               "testCounters", "testReset", "testExpireAccessTokens", "testRefreshFaults"])
    }
}
