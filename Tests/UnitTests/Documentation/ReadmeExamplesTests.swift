// README.md's ```swift blocks, each copied exactly into this file (the first test checks that
// they still are): this file compiling is the README's examples compiling, and the tests below
// run them against the fake servers of the unit tests. Change the README and this file together.

import AppRepository
import Foundation
import NetworkService
import TokenStore

/// Signs in, calls the API twice and signs out. In between, the service keeps the session in
/// `store`: it refreshes the access token before it expires (and after a 401, retrying once),
/// saves rotated tokens before using them, and takes turns with other processes on the store.
func greet(server: Server, store: some TokenStore) async throws -> String {
    let service = RepositoryService(server: server, tokenStore: store)
    try await service.signIn(email: "kim@example.com", password: "secret123")
    let me = try await service.request { server, token in        // the service supplies both
        try await MemberAPI.fetchMe(server: server, accessToken: token)
    }
    let again = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
    try await service.signOut()                   // on the server too, and locally even offline
    return "Hello, \(me.nickname) (\(again.id == me.id ? "same" : "another") member)"
}

func greetKim() async throws {
    let server = try Server(baseURL: "https://api.example.com")   // a bad URL throws here
    let store = FileTokenStore(fileURL: URL(fileURLWithPath: "/home/kim/.config/app/credentials.json"))
    print(try await greet(server: server, store: store))
}

/// Stand-ins that let the README's install lines compile here as they are written (in a
/// package manifest they are PackageDescription's); a test checks what they name.
enum ManifestLine: Equatable {
    case package(path: String)
    case product(name: String, package: String)
}

/// The README's install lines.
let readmeInstallLines: [ManifestLine] = [
.package(path: "../AppSDK"),   // or the repository URL
.product(name: "AppRepository", package: "AppSDK"),   // another server: "SessionEngine", "OAuthSignIn"
]

import AppSDKHarness
import AppSDKTesting
import Testing

// MARK: The tests

/// Issue #18, item 5: the README's examples compile (this file is them), still read as this file
/// has them, and run as written; the README stays a short guide whose links all lead somewhere.
@Suite("The README's examples")
struct ReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text of every ```swift block of `markdown`.
    static func swiftBlocks(of markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    @Test("every swift block of the README is compiled: here, or in OIDCAdopter, which the conformance suite runs against django-oauth-toolkit")
    func everyBlockIsCompiledHere() throws {
        let blocks = Self.swiftBlocks(of: try Self.text("README.md"))
        let thisFile = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        // The sign-in examples are lines of OIDCAdopter's function bodies, indented there by 8.
        let adopter = try Self.text("TestHarness/Sources/AppSDKHarness/OIDCAdopter.swift").components(separatedBy: "\n")
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : $0 }.joined(separator: "\n")
        #expect(blocks.count == 5)
        for block in blocks {
            let compiled = thisFile.contains(block) || adopter.contains(block)
            #expect(compiled, "README.md's block starting \"\(block.prefix(60))\" is neither in ReadmeExamplesTests.swift nor in OIDCAdopter.swift")
        }
    }

    @Test("the app example signs in, calls the API twice through the service and signs out on the server")
    func appExampleRunsAsWritten() async throws {
        let fake = try FakeAppServer(clock: TestClock())
        let store = InMemoryTokenStore()

        let greeting = try await greet(server: fake.server, store: store)

        #expect(greeting == "Hello, kim (same member)")
        #expect(fake.state.withLock { $0.apiRequests } == ["GET /v1/members/me", "GET /v1/members/me", "POST /v1/auth/sign-out"])
        #expect(try await store.load() == nil)
    }

    @Test("the install lines name this package and products it has")
    func installLinesNameRealProducts() throws {
        let manifest = try Self.text("Package.swift")
        #expect(manifest.contains("name: \"AppSDK\""))
        #expect(readmeInstallLines.contains(.package(path: "../AppSDK")))
        for case let .product(name, package) in readmeInstallLines {
            #expect(package == "AppSDK")
            #expect(manifest.contains(".library(name: \"\(name)\""), "Package.swift has no product \(name)")
        }
    }

    @Test("the README is at most 150 lines and shows the unit test command on its first screen")
    func readmeIsShort() throws {
        let lines = try Self.text("README.md").components(separatedBy: "\n")
        #expect(lines.count <= 150)
        #expect(lines.prefix(25).contains { $0.contains("swift test --filter UnitTests") })
    }

    @Test("every relative link of the README and of docs/ leads to a file or folder that exists")
    func relativeLinksResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        var checked = 0
        for page in pages {
            let folder = Self.root.appendingPathComponent(page).deletingLastPathComponent()
            for link in try Self.text(page).components(separatedBy: "](").dropFirst().compactMap({ $0.split(separator: ")").first }) {
                // A link to a heading of the same page (`#cis-time`) has no file part.
                let target = String(link.split(separator: "#", omittingEmptySubsequences: false).first ?? "")
                guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                checked += 1
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(target).standardized.path),
                        "\(page) links to \(target), which does not exist")
                #expect(!target.contains("../shared"), "\(page) links to \(target)")
            }
        }
        #expect(checked > 10)
    }
}
