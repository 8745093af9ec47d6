import Foundation
import Testing

/// What the CLI tests need from outside: the live server (`APP_SERVER_URL`), an admin account
/// on it (`APP_ADMIN_EMAIL`, `APP_ADMIN_PASSWORD`) and whether it runs in test mode
/// (`APP_SERVER_TEST_MODE=1`, the reference server's `--test-mode`). Tests that need one of
/// them are reported as skipped, with the reason, when it is missing.
enum CLIEnvironment {
    static let serverURL = value("APP_SERVER_URL")
    static let adminEmail = value("APP_ADMIN_EMAIL")
    static let adminPassword = value("APP_ADMIN_PASSWORD")
    static let hasTestMode = value("APP_SERVER_TEST_MODE") == "1"

    static var hasAdmin: Bool { serverURL != nil && adminEmail != nil && adminPassword != nil }

    private static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The live server's URL; the `.liveServer` trait makes sure it is set.
    static var server: String {
        get throws {
            guard let serverURL else { throw TestSetupError("APP_SERVER_URL is not set") }
            return serverURL
        }
    }

    /// A new unique email address.
    static func uniqueEmail(_ prefix: String = "cli") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())@example.com"
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only against a live server.
    static var liveServer: Self {
        .enabled(if: CLIEnvironment.serverURL != nil,
                 "APP_SERVER_URL is not set: the CLI tests need a live server (scripts/test or scripts/demo start one)")
    }

    /// Runs the test only when an admin account on the live server is known.
    static var liveAdmin: Self {
        .enabled(if: CLIEnvironment.hasAdmin,
                 "APP_SERVER_URL, APP_ADMIN_EMAIL and APP_ADMIN_PASSWORD are needed for the admin CLI tests")
    }

    /// Runs the test only against a server with the `/v1/_test` routes.
    static var liveTestMode: Self {
        .enabled(if: CLIEnvironment.hasAdmin && CLIEnvironment.hasTestMode,
                 "needs APP_SERVER_TEST_MODE=1 (the reference server's --test-mode) and an admin account")
    }
}
