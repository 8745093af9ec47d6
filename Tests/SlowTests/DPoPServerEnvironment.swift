import AppSDKHarness
import Foundation
import NetworkService
import Testing

/// The second reference server of the slow tests, which requires DPoP proofs with nonces
/// (`--dpop required --dpop-nonce required --test-mode`): `APP_DPOP_SERVER_URL`, which
/// `scripts/test` sets. Without it the DPoP tests are skipped, saying why, except in CI
/// (`CI=true`), where they run and fail: a missing server there is a broken run, never a skip.
enum DPoPServerEnvironment {
    /// The DPoP server's base URL, if set.
    static let serverURL = ProcessInfo.processInfo.environment["APP_DPOP_SERVER_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether this is a CI run (`CI=true`).
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The DPoP server, through URLSession with a 20-second timeout.
    /// - Throws: ``TestSetupError`` when `APP_DPOP_SERVER_URL` is not set.
    static func server() throws -> Server {
        guard let serverURL else {
            throw TestSetupError("APP_DPOP_SERVER_URL is not set: the DPoP tests need a reference server started with "
                                 + "--dpop required --dpop-nonce required --test-mode (scripts/test starts one)")
        }
        return try Server(baseURL: serverURL, transport: URLSessionTransport(timeout: 20))
    }

    /// The DPoP server's test-mode routes.
    static func testMode() throws -> DPoPTestMode { DPoPTestMode(server: try server()) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when the DPoP server is configured, and always in CI (where a missing
    /// server fails it); otherwise it is skipped with the reason.
    static var dpopServer: Self {
        .enabled(if: DPoPServerEnvironment.serverURL != nil || DPoPServerEnvironment.isCI,
                 "APP_DPOP_SERVER_URL is not set: this test needs a reference server requiring DPoP (scripts/test starts one)")
    }
}

/// The reference server's DPoP test-mode routes and counters (Server/README.md, "Test mode").
struct DPoPTestMode: Sendable {
    let server: Server

    /// What the server counted since its start: refresh calls, nonce challenges, and
    /// successful refreshes of bound families per key thumbprint (public values).
    struct Counters: Decodable, Sendable {
        var refreshCalls: Int
        var nonceChallenges: Int
        var refreshesByJKT: [String: Int]
    }

    func counters() async throws -> Counters { try await server.send(Route.counters) }
    /// Expires every access token issued so far.
    func expireAccessTokens() async throws { try await server.send(Route.expireAccessTokens) }
    /// Makes every nonce handed out so far stale: the next proof carrying one is challenged.
    func rotateNonce() async throws { try await server.send(Route.rotateNonce) }

    enum Route: Endpoint {
        case counters, expireAccessTokens, rotateNonce

        var method: HTTPMethod { self == .counters ? .get : .post }
        var path: EndpointPath {
            switch self {
            case .counters: "/v1/_test/counters"
            case .expireAccessTokens: "/v1/_test/expire-access-tokens"
            case .rotateNonce: "/v1/_test/dpop/rotate-nonce"
            }
        }
        var authentication: EndpointAuthentication { .none }
    }
}
