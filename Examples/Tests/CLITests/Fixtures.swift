import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        let email = CLIEnvironment.uniqueEmail()
        let outcome = try await run("app-member", ["sign-up", "--nickname", "cli-tester"] + store,
                                    environment: ["APP_EMAIL": email, "APP_PASSWORD": Self.password].merging(extra) { _, new in new })
        guard outcome.status == 0 else { throw TestSetupError("sign-up failed: \(outcome)") }
        return email
    }

    /// Signs the admin in with `app-admin sign-in` into `store`.
    func signInAdmin(_ store: [String]) async throws {
        let outcome = try await run("app-admin", ["sign-in"] + store, environment: [
            "APP_EMAIL": CLIEnvironment.adminEmail ?? "", "APP_PASSWORD": CLIEnvironment.adminPassword ?? "",
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

/// The reference server's test-mode routes (`--test-mode`).
enum TestModeServer {
    static func expireAccessTokens() async throws {
        _ = try await send("POST", "/v1/_test/expire-access-tokens")
    }

    static func refreshCalls() async throws -> Int {
        let data = try await send("GET", "/v1/_test/counters")
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let count = object["refreshCalls"] as? Int else {
            throw TestSetupError("unexpected counters: \(String(decoding: data, as: UTF8.self))")
        }
        return count
    }

    private static func send(_ method: String, _ path: String) async throws -> Data {
        var request = URLRequest(url: URL(string: try CLIEnvironment.server + path)!)
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, (200...299).contains(http.statusCode) else {
            throw TestSetupError("\(method) \(path) failed: \(response)")
        }
        return data
    }
}
