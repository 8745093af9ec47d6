import AppRepository
import Foundation
import NetworkService
import Testing
import TokenStore

/// Where the slow tests find their live server, from the environment:
/// - `APP_SERVER_URL` (required): the server's base URL;
/// - `APP_ADMIN_EMAIL`, `APP_ADMIN_PASSWORD`: an admin account, for the admin routes;
/// - `APP_SERVER_TEST_MODE=1`: the server has the `/v1/_test` routes (reference server with
///   `--test-mode`), for the tests that expire tokens or count refreshes;
/// - `APP_ACCESS_TOKEN_LIFETIME`: the server's access-token lifetime in seconds, when short,
///   for the test that lives through several real expiries.
///
/// `scripts/test` starts the reference server and sets all of them. Without `APP_SERVER_URL`
/// every slow test is reported as skipped, with the reason.
enum SlowTestEnvironment {
    static let environment = ProcessInfo.processInfo.environment
    static let serverURL = environment["APP_SERVER_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let adminEmail = environment["APP_ADMIN_EMAIL"]
    static let adminPassword = environment["APP_ADMIN_PASSWORD"]
    static let hasTestMode = environment["APP_SERVER_TEST_MODE"] == "1"
    static let accessTokenLifetime = environment["APP_ACCESS_TOKEN_LIFETIME"].flatMap(TimeInterval.init)

    static func server() throws -> Server {
        guard let serverURL else { throw NotConfigured(variable: "APP_SERVER_URL") }
        return try Server(baseURL: serverURL, transport: URLSessionTransport(timeout: 20))
    }

    /// A service with the default configuration (its leeway adapts to short-lived tokens).
    static func service(store: any TokenStore = InMemoryTokenStore()) throws -> RepositoryService {
        RepositoryService(server: try server(), tokenStore: store)
    }

    /// A new unique email address for a test's own account.
    static func uniqueEmail(_ prefix: String = "slow") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())@example.com"
    }

    static let password = "correct horse battery"

    /// Signs up a fresh member and returns their session.
    static func signUp(nickname: String = "slow") async throws -> AuthSession {
        try await AuthAPI.signUp(email: uniqueEmail(), password: password, nickname: nickname, server: server())
    }

    /// Signs in the admin account named by the environment.
    static func signInAdmin() async throws -> AuthSession {
        guard let adminEmail, let adminPassword else { throw NotConfigured(variable: "APP_ADMIN_EMAIL") }
        return try await AuthAPI.signIn(email: adminEmail, password: adminPassword, server: server())
    }

    struct NotConfigured: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only against a live server, and says why it is skipped otherwise.
    static var liveServer: Self {
        .enabled(if: SlowTestEnvironment.serverURL != nil,
                 "APP_SERVER_URL is not set: slow tests need a live server (scripts/test starts one)")
    }

    /// Runs the test only against a server with the admin account configured.
    static var adminAccount: Self {
        .enabled(if: SlowTestEnvironment.serverURL != nil && SlowTestEnvironment.adminEmail != nil,
                 "APP_SERVER_URL or APP_ADMIN_EMAIL/APP_ADMIN_PASSWORD is not set")
    }

    /// Runs the test only against the reference server in test mode.
    static var testMode: Self {
        .enabled(if: SlowTestEnvironment.serverURL != nil && SlowTestEnvironment.hasTestMode,
                 "APP_SERVER_URL is not set or APP_SERVER_TEST_MODE is not 1: this test needs the reference server's test mode")
    }
}

/// Every slow test, one at a time (`.serialized` reaches the nested suites): some of them
/// expire every access token on the server or count its refreshes, which must not overlap
/// with other tests.
@Suite("Live server", .serialized, .liveServer)
enum LiveServer {}
