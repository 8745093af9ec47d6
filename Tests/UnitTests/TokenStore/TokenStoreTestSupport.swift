import Foundation
import NetworkService
import Testing
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers shared by the token-store tests (prefixed so they cannot clash with other suites' helpers).
enum TokenStoreTesting {
    /// Runs `body` with a new empty folder (0700) that is removed afterwards.
    static func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        var template = Array((NSTemporaryDirectory() + "/tokenstore-test-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw TestFailure("cannot create a temporary folder (errno \(errno))")
        }
        let folder = URL(fileURLWithPath: String(cString: created)).standardizedFileURL
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// Credentials whose tokens are unique and easy to search for in output.
    static func credentials(_ label: String = "a", expires: Date? = Date(timeIntervalSinceNow: 900)) -> Credentials {
        let unique = UUID().uuidString
        return Credentials(
            accessToken: AccessToken("secret-access-\(label)-\(unique)"),
            refreshToken: "secret-refresh-\(label)-\(unique)",
            accessTokenExpiresAt: expires,
            accountID: "member-\(label)"
        )
    }

    /// The credentials the probe writes for `count`.
    static func probeCredentials(count: Int) -> Credentials {
        Credentials(accessToken: AccessToken("access-\(count)"), refreshToken: "refresh-\(count)", accessTokenExpiresAt: nil, accountID: "\(count)")
    }

    /// The count in probe-written credentials, checking that the file holds one whole save.
    static func probeCount(_ credentials: Credentials?) throws -> Int {
        guard let credentials else { return 0 }
        let count = try #require(Int(credentials.accountID))
        #expect(credentials == probeCredentials(count: count), "a file mixing two saves")
        return count
    }

    static func bytes(at url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// Writes `bytes` to `url` with mode 0600 (replacing it in place).
    static func write(_ bytes: [UInt8], to url: URL, mode: mode_t = 0o600) throws {
        try Data(bytes).write(to: url)
        chmod(url.path, mode)
    }

    /// The permission bits of a file or folder.
    static func mode(of url: URL) throws -> mode_t {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw TestFailure("cannot stat \(url.path)") }
        return info.st_mode & 0o777
    }

    /// The names in a folder, sorted.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Expects `body` to throw a ``TokenStoreError`` and returns it.
    static func expectStoreError(
        _ body: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> TokenStoreError? {
        do {
            try await body()
            Issue.record("expected a TokenStoreError, but nothing was thrown", sourceLocation: sourceLocation)
            return nil
        } catch let error as TokenStoreError {
            return error
        } catch {
            Issue.record("expected a TokenStoreError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Runs blocking work (waiting for processes) on a Dispatch thread, not a cooperative one.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Runs `body`, failing the test if it takes longer than `seconds` (a deadlock guard).
    static func withDeadline<T: Sendable>(
        seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            guard let first else { throw TestFailure("\(what) did not finish within \(seconds) s (deadlock?)") }
            return first
        }
    }
}

/// A test failure with a message.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

#if EncryptedTokenStore
extension EncryptedFileTokenStore.KeyDerivation {
    /// libsodium's minimum Argon2id cost: keeps the tests fast. Never for real use.
    static let cheapForTests = EncryptedFileTokenStore.KeyDerivation(opsLimit: 1, memoryLimit: 8192)
}
#endif
