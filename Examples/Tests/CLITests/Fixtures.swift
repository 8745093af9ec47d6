import AppSDKHarness
import Foundation

/// Steps many tests share.
extension CLIProcess {
    static let password = "correct-horse-9"

    /// Arguments for a plain file store in the test's folder.
    func fileStore(_ name: String = "member.json") -> [String] {
        ["--store", "file", "--store-path", path(name)]
    }

    /// Arguments for an encrypted store in the test's folder.
    func encryptedStore(_ name: String = "member.enc") -> [String] {
        ["--store", "encrypted", "--store-path", path(name)]
    }

    /// Signs up a new member with `app-member sign-up` into `store`; returns their email.
    @discardableResult
    func signUp(_ store: [String], environment extra: [String: String] = [:]) async throws -> String {
        let email = LiveServerEnvironment.uniqueEmail("cli")
        let outcome = try await run("app-member", ["sign-up", "--nickname", "cli-tester"] + store,
                                    environment: ["APP_EMAIL": email, "APP_PASSWORD": Self.password].merging(extra) { _, new in new })
        guard outcome.status == 0 else { throw TestSetupError("sign-up failed: \(outcome)") }
        return email
    }

    /// Signs the admin in with `app-admin sign-in` into `store`.
    func signInAdmin(_ store: [String]) async throws {
        let outcome = try await run("app-admin", ["sign-in"] + store, environment: [
            "APP_EMAIL": LiveServerEnvironment.adminEmail ?? "", "APP_PASSWORD": LiveServerEnvironment.adminPassword ?? "",
        ])
        guard outcome.status == 0 else { throw TestSetupError("admin sign-in failed: \(outcome)") }
    }

    /// The tokens in a plain store file, as the SDK wrote them.
    func storedTokens(_ name: String = "member.json") throws -> [String] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        guard let file = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let object = file["credentials"] as? [String: Any] else {
            throw TestSetupError("the store file is not the SDK's JSON")
        }
        let tokens = ["accessToken", "refreshToken"].compactMap { object[$0] as? String }
        guard tokens.count == 2 else { throw TestSetupError("the store file has no tokens under the expected keys") }
        return tokens
    }
}

/// The reference server's test-mode routes (`--test-mode`), through the harness's client (AppSDKHarness).
enum TestModeServer {
    static func expireAccessTokens() async throws {
        try await TestModeClient(server: LiveServerEnvironment.server()).expireAccessTokens()
    }

    static func refreshCalls() async throws -> Int {
        try await TestModeClient(server: LiveServerEnvironment.server()).counters().refreshCalls
    }
}
