import NetworkService

/// The reference server's DPoP counters in test mode (Server/README.md, "Test mode"): nonce
/// challenges, and successful refreshes of bound families per key thumbprint (a thumbprint is
/// a hash of a public key: nothing secret).
struct DPoPCounters: Decodable, Sendable {
    var nonceChallenges: Int
    var refreshesByJKT: [String: Int]

    /// The server's counters now.
    static func fetch(from server: Server) async throws -> DPoPCounters {
        try await server.send(Route.counters)
    }

    /// The thumbprints of the keys whose families refreshed between `before` and `self`.
    func keysRefreshed(since before: DPoPCounters) -> Set<String> {
        Set(refreshesByJKT.filter { $0.value > before.refreshesByJKT[$0.key, default: 0] }.keys)
    }

    enum Route: Endpoint {
        case counters
        var method: HTTPMethod { .get }
        var path: EndpointPath { "/v1/_test/counters" }
        var authentication: EndpointAuthentication { .none }
    }
}
