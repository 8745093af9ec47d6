import Foundation
import NetworkService

/// The reference server's `/v1/_test` routes (only with `--test-mode`).
enum TestModeEndpoint: Endpoint {
    case counters
    case reset
    case expireAccessTokens
    case refreshFaults(RefreshFaults)

    var method: HTTPMethod {
        switch self {
        case .counters: .get
        default: .post
        }
    }

    var path: EndpointPath {
        switch self {
        case .counters: "/v1/_test/counters"
        case .reset: "/v1/_test/reset"
        case .expireAccessTokens: "/v1/_test/expire-access-tokens"
        case .refreshFaults: "/v1/_test/refresh-faults"
        }
    }

    var body: RequestBody {
        switch self {
        case let .refreshFaults(faults): .json(faults)
        default: .none
        }
    }

    var authentication: EndpointAuthentication { .none }
}

struct RefreshFaults: Codable, Sendable {
    var mode: String
    var count: Int
    var seconds: Double?
}

struct TestCounters: Codable, Sendable {
    var refreshCalls: Int
    var unauthorizedResponses: Int
    var routes: [String: Int]
}

/// Drives the reference server's test mode.
struct TestModeClient {
    let server: Server

    func counters() async throws -> TestCounters { try await server.send(TestModeEndpoint.counters) }
    func reset() async throws { try await server.send(TestModeEndpoint.reset) }
    func expireAccessTokens() async throws { try await server.send(TestModeEndpoint.expireAccessTokens) }
    func failNextRefreshes(_ mode: String, count: Int, seconds: Double? = nil) async throws {
        try await server.send(TestModeEndpoint.refreshFaults(RefreshFaults(mode: mode, count: count, seconds: seconds)))
    }
}
