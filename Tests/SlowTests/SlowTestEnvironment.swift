import AppRepository
import Foundation
import NetworkService
import Testing

/// Where the slow tests find their live server: `APP_SERVER_URL` (and, for the admin tests,
/// `APP_ADMIN_EMAIL` / `APP_ADMIN_PASSWORD`). `scripts/test` starts the reference server in
/// test mode and sets them; without `APP_SERVER_URL` every slow test is reported as skipped
/// with the reason.
enum SlowTestEnvironment {
    static let serverURL = ProcessInfo.processInfo.environment["APP_SERVER_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let adminEmail = ProcessInfo.processInfo.environment["APP_ADMIN_EMAIL"]
    static let adminPassword = ProcessInfo.processInfo.environment["APP_ADMIN_PASSWORD"]
    /// Whether the server has the `/v1/_test` routes (the reference server with `--test-mode`).
    static let hasTestMode = ProcessInfo.processInfo.environment["APP_SERVER_TEST_MODE"] == "1"

    static var isConfigured: Bool { serverURL != nil }

    static func server() throws -> Server {
        guard let serverURL else { throw SlowTestSkipped() }
        return try Server(baseURL: serverURL, transport: URLSessionTransport(timeout: 20))
    }

    /// A new unique email address for a test's own account.
    static func uniqueEmail(_ prefix: String = "slow") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())@example.com"
    }
}

struct SlowTestSkipped: Error {}

extension Trait where Self == ConditionTrait {
    /// Runs the test only against a live server, and says why it is skipped otherwise.
    static var liveServer: Self {
        .enabled(if: SlowTestEnvironment.isConfigured,
                 "APP_SERVER_URL is not set: slow tests need a live server (scripts/test starts one)")
    }
}
