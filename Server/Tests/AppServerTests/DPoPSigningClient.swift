import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A test client that behaves as a DPoP client holding one key: every request gets a fresh
/// proof, and `Authorization: Bearer <t>` is sent as `DPoP <t>` with the token's `ath`. So a
/// suite written for bearer sessions runs unchanged against a DPoP-bound family. It also checks
/// that every token pair the server hands out is bound (`tokenType` `DPoP`).
struct DPoPSigningClient: TestClientProtocol {
    let base: any TestClientProtocol
    let key: DPoPTestKey
    /// The server's clock, for the proofs' `iat`.
    let now: @Sendable () -> Date

    var port: Int? { base.port }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        var accessToken: String?
        if let authorization = headers[.authorization], authorization.hasPrefix("Bearer ") {
            let token = String(authorization.dropFirst("Bearer ".count))
            headers[.authorization] = "DPoP " + token
            accessToken = token
        }
        headers[.dpopProof] = key.proof(method, uri, accessToken: accessToken, at: now())
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        let text = String(buffer: response.body)
        #expect(!text.contains(#""tokenType":"Bearer""#), "a DPoP client was given a bearer session at \(method) \(uri)")
        return response
    }
}

/// How the sessions of a test are held: as bearer sessions, or bound to a DPoP key (the
/// server then runs with `--dpop allowed`). Suites of refresh rules run under both.
enum SessionBinding: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case bearer
    case dpop

    var testDescription: String { rawValue }

    /// ``TestServer/run(_:configuration:clock:_:)`` with sessions held this way.
    func run<T: Sendable>(
        _ setup: TestingSetup = .router,
        configuration: ServerConfiguration = TestServer.configuration(),
        clock: TestClock? = nil,
        _ body: @Sendable (API) async throws -> T
    ) async throws -> T {
        switch self {
        case .bearer:
            return try await TestServer.run(setup, configuration: configuration, clock: clock, body)
        case .dpop:
            var configuration = configuration
            configuration.dpop.mode = .allowed
            let key = DPoPTestKey()
            let now: @Sendable () -> Date = { clock?.now ?? Date() }
            return try await TestServer.run(setup, configuration: configuration, clock: clock) { api in
                try await body(API(client: DPoPSigningClient(base: api.client, key: key, now: now)))
            }
        }
    }
}
