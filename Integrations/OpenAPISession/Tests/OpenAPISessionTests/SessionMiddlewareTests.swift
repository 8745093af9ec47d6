import Foundation
import HTTPTypes
import NetworkService
import OpenAPIRuntime
import OpenAPISessionMiddleware
import SessionEngine
import Testing
import TokenStore

/// The middleware's rules, against a fake API behind `next` (no network): each attempt is
/// recorded with its token and body, and a `.single` body read twice fails the attempt, as a
/// real transport would.
@Suite("SessionMiddleware against a fake API")
struct SessionMiddlewareTests {
    /// One request as the fake API received it.
    struct Attempt: Sendable, Equatable {
        var operationID: String
        var authorization: String?
        var body: String?
    }

    /// The API: answers 200 for a live access token and `refusal` otherwise; its refresher
    /// issues the next token.
    final class FakeAPI: Sendable {
        struct State {
            var live: Set<String> = ["access-0"]
            var serial = 0
            var refreshes = 0
            var attempts: [Attempt] = []
            /// Every token is refused, a new one too (a server in a loop).
            var refusesEveryToken = false
            var refusal: (status: Int, headers: HTTPFields, body: String) = (401, [.wwwAuthenticate: "Bearer"], "")
        }
        let state = LockedValue(State())

        var refresher: TokenRefresher {
            TokenRefresher { [self] _, _ in
                state.withLock { state in
                    state.refreshes += 1
                    state.serial += 1
                    state.live = ["access-\(state.serial)"]
                    return Tokens(accessToken: AccessToken("access-\(state.serial)"), refreshToken: "refresh-\(state.serial)", expiresIn: 900)
                }
            }
        }

        @Sendable func send(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, operationID: String) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
            // Reading a `.single` body a second time throws, as it would in a transport.
            var text: String?
            if let body { text = try await String(collecting: body, upTo: 1 << 20) }
            let authorization = request.headerFields[.authorization]
            return state.withLock { state in
                state.attempts.append(Attempt(operationID: operationID, authorization: authorization, body: text))
                let token = authorization.map { String($0.dropFirst("Bearer ".count)) }
                if operationID == "signIn" || (token.map(state.live.contains) == true && !state.refusesEveryToken) {
                    return (HTTPTypes.HTTPResponse(status: .ok), HTTPBody("{}"))
                }
                return (HTTPTypes.HTTPResponse(status: .init(code: state.refusal.status), headerFields: state.refusal.headers), HTTPBody(state.refusal.body))
            }
        }

        var refreshes: Int { state.withLock { $0.refreshes } }
        var attempts: [Attempt] { state.withLock { $0.attempts } }
        func expireAccessTokens() { state.withLock { $0.live = [] } }
    }

    let api = FakeAPI()

    func session(policy: AuthenticationFailurePolicy = .default, signedIn: Bool = true) throws -> SessionService {
        let now = Date()
        let stored = Credentials(accessToken: AccessToken("access-0"), refreshToken: "refresh-0", accessTokenExpiresAt: now.addingTimeInterval(900),
                                 accountID: "kim", accessTokenIssuedAt: now)
        let configuration = SessionService.Configuration(authenticationFailurePolicy: policy, refresher: api.refresher)
        return SessionService(server: try Server(baseURL: "https://api.example.com"),
                              tokenStore: signedIn ? InMemoryTokenStore(credentials: stored) : InMemoryTokenStore(),
                              configuration: configuration)
    }

    /// Sends `operationID` through `middleware` to the fake API.
    func send(_ middleware: SessionMiddleware, _ operationID: String = "createPost", body: HTTPBody? = nil,
              method: HTTPTypes.HTTPRequest.Method = .post) async throws -> (HTTPTypes.HTTPResponse, String?) {
        let request = HTTPTypes.HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: "/v1/posts?secret=x")
        let api = api
        let (response, body) = try await middleware.intercept(request, body: body, baseURL: URL(string: "https://api.example.com")!,
                                                              operationID: operationID) { request, body, _ in
            try await api.send(request, body: body, operationID: operationID)
        }
        guard let body else { return (response, nil) }
        return (response, try await String(collecting: body, upTo: 1 << 20))
    }

    /// A body that can be read once, like an upload streamed from a file.
    static func streamingBody(_ text: String) -> HTTPBody {
        HTTPBody(AsyncStream { continuation in
            continuation.yield(ArraySlice(Array(text.utf8)))
            continuation.finish()
        }, length: .known(Int64(text.utf8.count)), iterationBehavior: .single)
    }

    @Test("an operation carries the session's access token as a Bearer header")
    func bearerToken() async throws {
        let middleware = SessionMiddleware(session: try session())
        let (response, _) = try await send(middleware)
        #expect(response.status == .ok)
        #expect(api.attempts.map(\.authorization) == ["Bearer access-0"])
    }

    @Test("a 401 refreshes once and sends the operation again with the new token and the same buffered body")
    func unauthorizedRetriesBufferedBody() async throws {
        let middleware = SessionMiddleware(session: try session())
        api.expireAccessTokens()
        let (response, _) = try await send(middleware, body: HTTPBody(#"{"content":"hello"}"#))
        #expect(response.status == .ok)
        #expect(api.refreshes == 1)
        #expect(api.attempts == [Attempt(operationID: "createPost", authorization: "Bearer access-0", body: #"{"content":"hello"}"#),
                                 Attempt(operationID: "createPost", authorization: "Bearer access-1", body: #"{"content":"hello"}"#)])
    }

    @Test("a streaming body is never sent twice: the caller gets the 401, and the session has refreshed for the next operation")
    func singleBodyIsNotRetried() async throws {
        let middleware = SessionMiddleware(session: try session())
        api.expireAccessTokens()
        let (response, _) = try await send(middleware, body: Self.streamingBody("upload"))
        #expect(response.status == .unauthorized)
        #expect(response.headerFields[.wwwAuthenticate] == "Bearer")
        #expect(api.attempts == [Attempt(operationID: "createPost", authorization: "Bearer access-0", body: "upload")])
        #expect(api.refreshes == 1)
        let (next, _) = try await send(middleware, body: Self.streamingBody("upload"))
        #expect(next.status == .ok)
        #expect(api.attempts.last?.authorization == "Bearer access-1")
    }

    @Test("a 401 again after the refresh reaches the caller as the server's response, body and all: one refresh, no loop")
    func secondRefusalIsTheResponse() async throws {
        let middleware = SessionMiddleware(session: try session())
        api.state.withLock { $0.refusal.body = #"{"error":{"code":"invalid_token","message":"no"}}"# }
        api.state.withLock { $0.refusesEveryToken = true }
        let (response, body) = try await send(middleware, method: .get)
        #expect(response.status == .unauthorized)
        #expect(body == #"{"error":{"code":"invalid_token","message":"no"}}"#)
        #expect(api.attempts.count == 2)
        #expect(api.refreshes == 1)
    }

    @Test("a server that refuses every token is stopped by the refresh limit: 10 operations, 5 refreshes, then refreshLimitExceeded")
    func refreshLimit() async throws {
        let middleware = SessionMiddleware(session: try session())
        api.state.withLock { $0.refusesEveryToken = true }
        var statuses: [Int] = []
        var limited = 0
        for _ in 0..<10 {
            do {
                statuses.append(try await send(middleware, method: .get).0.status.code)
            } catch let error as SessionError where error.kind == .refreshLimitExceeded {
                limited += 1
            }
        }
        #expect(api.refreshes == RefreshLimit().maximumRefreshes)
        #expect(statuses == Array(repeating: 401, count: 5))
        #expect(limited == 5)
        #expect(api.attempts.count == 5 * 2 + 5)
    }

    @Test("a bare 403 never refreshes: the caller gets the 403; one whose challenge says invalid_token refreshes")
    func forbidden() async throws {
        let middleware = SessionMiddleware(session: try session())
        api.expireAccessTokens()
        api.state.withLock { $0.refusal = (403, [:], "") }
        let (bare, _) = try await send(middleware, method: .get)
        #expect(bare.status == .forbidden)
        #expect(api.refreshes == 0)

        api.state.withLock { $0.refusal = (403, [.wwwAuthenticate: #"Bearer error="invalid_token""#], "") }
        let (invalidToken, _) = try await send(middleware, method: .get)
        #expect(invalidToken.status == .ok)
        #expect(api.refreshes == 1)
    }

    @Test("a bare 403 refreshes when the session's policy opts in")
    func forbiddenOptedIn() async throws {
        let middleware = SessionMiddleware(session: try session(policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true)))
        api.expireAccessTokens()
        api.state.withLock { $0.refusal = (403, [:], "") }
        let (response, _) = try await send(middleware, method: .get)
        #expect(response.status == .ok)
        #expect(api.refreshes == 1)
    }

    @Test("a policy that names server error codes reads the code from the refusal's body, which still reaches the caller")
    func serverErrorCodes() async throws {
        let middleware = SessionMiddleware(session: try session(policy: AuthenticationFailurePolicy(serverErrorCodes: [.tokenExpired])))
        api.expireAccessTokens()
        let other = #"{"error":{"code":"invalid_credentials","message":"wrong"}}"#
        api.state.withLock { $0.refusal.body = other }
        let (refused, body) = try await send(middleware, method: .get)
        #expect(refused.status == .unauthorized)
        #expect(body == other)
        #expect(api.refreshes == 0)

        api.state.withLock { $0.refusal.body = #"{"error":{"code":"token_expired","message":"expired"}}"# }
        let (response, _) = try await send(middleware, method: .get)
        #expect(response.status == .ok)
        #expect(api.refreshes == 1)
    }

    @Test("operations named as unauthenticated go without a token, signed in or not")
    func unauthenticatedOperations() async throws {
        let middleware = SessionMiddleware(session: try session(signedIn: false), unauthenticatedOperations: ["signIn"])
        let (response, _) = try await send(middleware, "signIn", body: HTTPBody("{}"))
        #expect(response.status == .ok)
        #expect(api.attempts == [Attempt(operationID: "signIn", authorization: nil, body: "{}")])
    }

    @Test("without a session, an operation that needs one throws notSignedIn and sends nothing")
    func notSignedIn() async throws {
        let middleware = SessionMiddleware(session: try session(signedIn: false), unauthenticatedOperations: ["signIn"])
        let error = await #expect(throws: SessionError.self) { try await send(middleware, "getMe", method: .get) }
        #expect(error?.kind == .notSignedIn)
        #expect(api.attempts.isEmpty)
    }
}
