import AppServerCore
import Foundation
import Logging
import Testing

/// Issue 11: a damaged database file crashed the server at start (SQLiteConnection's deinit
/// assertion: `Database.open` did not close the connection when configuring or migrating threw).
@Suite("Damaged database files")
struct DamagedDatabaseTests {
    static func withFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("app.sqlite").path)
    }

    static func expectRefused(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        do {
            _ = try await AppServer.build(configuration: TestServer.configuration(database: .file(path: path)), logger: logger)
            Issue.record("a damaged database was opened", sourceLocation: sourceLocation)
        } catch {
            let message = "\(error)"
            #expect(message.contains(path), "\(message)", sourceLocation: sourceLocation)
            #expect(message.contains("is not a usable SQLite database"), "\(message)", sourceLocation: sourceLocation)
        }
    }

    @Test("a file of garbage bytes is refused with a clear error, without crashing")
    func garbage() async throws {
        try await Self.withFolder { path in
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<65536).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            await Self.expectRefused(path)
            // Twice: the first refusal left nothing open behind.
            await Self.expectRefused(path)
        }
    }

    @Test("a truncated real database is refused by PRAGMA quick_check, without crashing")
    func truncated() async throws {
        try await Self.withFolder { path in
            let configuration = TestServer.configuration(database: .file(path: path))
            try await TestServer.run(configuration: configuration) { api in
                let ann = try await api.signUp("ann@example.com")
                for index in 0..<300 {
                    _ = try await api.createPost(token: ann.tokens.accessToken, content: "post \(index) " + String(repeating: "x", count: 900))
                }
            }
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size > 200_000)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
            await Self.expectRefused(path)
        }
    }
}
