import Foundation
import HTTPTypes
import NetworkService
import OpenAPIRuntime
import OpenAPISessionMiddleware
import SessionEngine
import Testing
import TokenStore

/// The middleware with a session bound to a DPoP key (RFC 9449), against a fake API behind
/// `next` that records each attempt's `Authorization` and proof, and asks for a nonce when told.
@Suite("SessionMiddleware with a DPoP-bound session")
struct SessionMiddlewareDPoPTests {
    /// One request as the fake API received it: its `Authorization` and its proof's payload.
    struct Attempt: Sendable {
        var authorization: String?
        var payload: [String: String]
    }

    final class FakeAPI: Sendable {
        struct State {
            var attempts: [Attempt] = []
            var refreshes = 0
            /// The nonce a proof must carry, when the API asks for one.
            var nonce: String?
        }
        let state = LockedValue(State())

        var refresher: TokenRefresher {
            TokenRefresher { [self] _, _ in
                state.withLock { $0.refreshes += 1 }
                return Tokens(accessToken: AccessToken("access-1"), refreshToken: "refresh-1", tokenType: "DPoP", expiresIn: 900)
            }
        }

        @Sendable func send(_ request: HTTPTypes.HTTPRequest) -> HTTPTypes.HTTPResponse {
            let payload = request.headerFields[HTTPField.Name("DPoP")!].flatMap(Self.payload) ?? [:]
            return state.withLock { state in
                state.attempts.append(Attempt(authorization: request.headerFields[.authorization], payload: payload))
                if let nonce = state.nonce, payload["nonce"] != nonce {
                    return HTTPTypes.HTTPResponse(status: .unauthorized, headerFields: [
                        .wwwAuthenticate: #"DPoP error="use_dpop_nonce", error_description="a nonce is required""#,
                        HTTPField.Name("DPoP-Nonce")!: nonce,
                    ])
                }
                return HTTPTypes.HTTPResponse(status: .ok)
            }
        }

        /// The payload of a compact proof, its values as strings.
        static func payload(of proof: String) -> [String: String]? {
            let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard let data = Data(base64Encoded: base64),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object.mapValues { "\($0)" }
        }

        var attempts: [Attempt] { state.withLock { $0.attempts } }
    }

    let api = FakeAPI()
    /// A host of this test's own: nonces are kept per origin for the whole process, and tests run at once.
    let host = "api-\(UUID().uuidString.prefix(8).lowercased()).example.com"

    /// A session signed in through `startSession(accountID:signingInWith:)` with an EdDSA key.
    func session() async throws -> SessionService {
        var configuration = SessionService.Configuration(refresher: api.refresher)
        configuration.dpop = DPoPConfiguration(keys: .eddsa)
        let session = SessionService(server: try Server(baseURL: "https://\(host)"), tokenStore: InMemoryTokenStore(),
                                     configuration: configuration)
        try await session.startSession(accountID: "kim") { _ in
            Tokens(accessToken: AccessToken("access-0"), refreshToken: "refresh-0", tokenType: "DPoP", expiresIn: 900)
        }
        return session
    }

    func send(_ middleware: SessionMiddleware, body: HTTPBody? = nil) async throws -> HTTPTypes.HTTPResponse {
        let request = HTTPTypes.HTTPRequest(method: .post, scheme: "https", authority: host, path: "/v1/posts?secret=x")
        let api = api
        return try await middleware.intercept(request, body: body, baseURL: URL(string: "https://\(host)")!,
                                              operationID: "createPost") { request, _, _ in (api.send(request), nil) }.0
    }

    @Test("an operation carries Authorization: DPoP and a proof naming its method, its URL without the query, and the token's hash")
    func proofOnEachOperation() async throws {
        let response = try await send(SessionMiddleware(session: try await session()))
        #expect(response.status == .ok)
        let attempt = try #require(api.attempts.first)
        #expect(api.attempts.count == 1)
        #expect(attempt.authorization == "DPoP access-0")
        #expect(attempt.payload["htm"] == "POST")
        #expect(attempt.payload["htu"] == "https://\(host)/v1/posts")
        // base64url(SHA-256("access-0")), computed apart from the SDK.
        #expect(attempt.payload["ath"] == "VA1IUBk4GsdZ9PPdwh8zdGo1HXHnYR1bjN46nt-WagA")
        #expect(attempt.payload["jti"]?.isEmpty == false)
    }

    @Test("a nonce challenge is answered by exactly one retry with a new proof carrying the nonce, and never refreshes")
    func nonceChallengeRetriedOnce() async throws {
        api.state.withLock { $0.nonce = "nonce-1" }
        let response = try await send(SessionMiddleware(session: try await session()), body: HTTPBody(#"{"content":"hello"}"#))
        #expect(response.status == .ok)
        let attempts = api.attempts
        #expect(attempts.count == 2)
        #expect(attempts.map { $0.payload["nonce"] } == [nil, "nonce-1"])
        #expect(attempts[0].payload["jti"] != attempts[1].payload["jti"])
        #expect(api.state.withLock { $0.refreshes } == 0)
    }

    @Test("the nonce is kept: the next operation proves with it at once")
    func nonceKeptForTheNextOperation() async throws {
        api.state.withLock { $0.nonce = "nonce-2" }
        let middleware = SessionMiddleware(session: try await session())
        _ = try await send(middleware)
        _ = try await send(middleware)
        #expect(api.attempts.map { $0.payload["nonce"] } == [nil, "nonce-2", "nonce-2"])
    }

    @Test("a second nonce challenge reaches the caller as the server's 401: two attempts, no loop, no refresh")
    func secondChallengeIsTheResponse() async throws {
        let middleware = SessionMiddleware(session: try await session())
        api.state.withLock { $0.nonce = "nonce-3" }
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: "https", authority: host, path: "/v1/members/me")
        let api = api
        let (response, _) = try await middleware.intercept(request, body: nil, baseURL: URL(string: "https://\(host)")!,
                                                           operationID: "getMe") { request, _, _ in
            // A server whose nonce has moved on again by the time the retry arrives.
            let answer = api.send(request)
            api.state.withLock { $0.nonce = "nonce-\(UUID().uuidString)" }
            return (answer, nil)
        }
        #expect(response.status == .unauthorized)
        #expect(api.attempts.count == 2)
        #expect(api.state.withLock { $0.refreshes } == 0)
    }

    @Test("a streaming body is never sent twice for a nonce challenge: the caller gets the challenge")
    func streamingBodyNotRetried() async throws {
        api.state.withLock { $0.nonce = "nonce-4" }
        let body = HTTPBody(AsyncStream { continuation in
            continuation.yield(ArraySlice(Array("upload".utf8)))
            continuation.finish()
        }, length: .known(6), iterationBehavior: .single)
        let response = try await send(SessionMiddleware(session: try await session()), body: body)
        #expect(response.status == .unauthorized)
        #expect(api.attempts.count == 1)
    }
}
