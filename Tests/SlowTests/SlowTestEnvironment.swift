import AppRepository
import AppSDKHarness
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// The slow tests' own steps on the live server that ``LiveServerEnvironment`` (from
/// AppSDKHarness) names: a service, a fresh member, the admin. Without `APP_SERVER_URL`
/// every slow test is reported as skipped, with the reason; `scripts/test` sets it.
enum SlowTestEnvironment {
    /// A service with the default configuration (its leeway adapts to short-lived tokens).
    static func service(store: any TokenStore = InMemoryTokenStore()) throws -> RepositoryService {
        RepositoryService(server: try LiveServerEnvironment.server(), tokenStore: store)
    }

    static let password = "correct horse battery"

    /// Signs up a fresh member and returns their session.
    static func signUp(nickname: String = "slow") async throws -> AuthSession {
        try await AuthAPI.signUp(email: LiveServerEnvironment.uniqueEmail("slow"), password: password, nickname: nickname,
                                 server: LiveServerEnvironment.server())
    }

    /// Signs in the admin account named by the environment.
    static func signInAdmin() async throws -> AuthSession {
        guard let adminEmail = LiveServerEnvironment.adminEmail, let adminPassword = LiveServerEnvironment.adminPassword else {
            throw TestSetupError("APP_ADMIN_EMAIL or APP_ADMIN_PASSWORD is not set")
        }
        return try await AuthAPI.signIn(email: adminEmail, password: adminPassword, server: LiveServerEnvironment.server())
    }
}

/// Every slow test, one at a time (`.serialized` reaches the nested suites): some of them
/// expire every access token on the server or count its refreshes, which must not overlap
/// with other tests.
@Suite("Live server", .serialized, .liveServer)
enum LiveServer {}
