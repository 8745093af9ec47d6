public import NetworkService

/// Drives the reference server's test-mode routes (`/v1/_test/…`, only with `--test-mode`):
/// counters of refresh calls and 401s, expiring every access token, making the next refresh
/// calls fail, hang or drop. Used by the slow tests, the CLI tests and the benchmarks.
///
/// ```swift
/// let testMode = TestModeClient(server: try LiveServerEnvironment.server())
/// try await testMode.expireAccessTokens()
/// let before = try await testMode.counters().refreshCalls
/// ```
public struct TestModeClient: Sendable {
    /// The reference server.
    public let server: Server

    /// A client for `server`'s test-mode routes.
    public init(server: Server) { self.server = server }

    /// The server's counters.
    public func counters() async throws -> TestCounters { try await server.send(TestModeEndpoint.counters) }
    /// Zeroes the counters and clears pending refresh faults.
    public func reset() async throws { try await server.send(TestModeEndpoint.reset) }
    /// Expires every access token issued so far.
    public func expireAccessTokens() async throws { try await server.send(TestModeEndpoint.expireAccessTokens) }
    /// Makes the next `count` refresh calls `fail` (500), `hang` (for `seconds`) or `drop` the connection.
    public func failNextRefreshes(_ mode: String, count: Int, seconds: Double? = nil) async throws {
        try await server.send(TestModeEndpoint.refreshFaults(RefreshFaults(mode: mode, count: count, seconds: seconds)))
    }
}

/// What the reference server counted since its start or the last reset.
public struct TestCounters: Codable, Sendable {
    /// `POST /v1/auth/refresh` calls.
    public var refreshCalls: Int
    /// Responses with status 401.
    public var unauthorizedResponses: Int
    /// Calls per route, keyed like `GET /v1/posts/{id}`.
    public var routes: [String: Int]
    /// Error responses per error code, like `refresh_token_reused` (`nil` from a server
    /// that does not count them).
    public var errorCodes: [String: Int]?

    /// How many error responses carried `code`.
    public func errors(_ code: String) -> Int { errorCodes?[code] ?? 0 }
}

/// The body of `POST /v1/_test/refresh-faults`.
struct RefreshFaults: Codable, Sendable {
    var mode: String
    var count: Int
    var seconds: Double?
}

/// The reference server's `/v1/_test` routes.
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
