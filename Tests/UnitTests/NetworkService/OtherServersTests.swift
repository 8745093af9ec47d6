import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import Testing

/// The routes of a typical OAuth 2.0 server, as an adopter would describe them.
private enum OAuthEndpoint: Endpoint {
    case token(fields: [(name: String, value: String)])
    case item(id: Int)

    var method: HTTPMethod {
        switch self {
        case .token: .post
        case .item: .get
        }
    }

    var path: EndpointPath {
        switch self {
        case .token: "/o/token/"
        case let .item(id): "/api/items/" / id
        }
    }

    var body: RequestBody {
        switch self {
        case let .token(fields): .form(fields)
        case .item: .none
        }
    }

    var authentication: EndpointAuthentication {
        switch self {
        case .token: .none
        case .item: .bearer
        }
    }
}

@Suite("Servers other than the app's: paths, form bodies, error formats, transport causes")
struct OtherServersTests {
    @Test("a trailing slash in a path constant is kept; appending a segment uses it as the separator")
    func trailingSlash() {
        #expect(("/api/token/" as EndpointPath).rendered == "/api/token/")
        #expect(("/api/token" as EndpointPath).rendered == "/api/token")
        #expect(("/api/items/" / 42).rendered == "/api/items/42")
        #expect(("/" as EndpointPath).rendered == "/")
        #expect(EndpointPath(segments: ["a b"], hasTrailingSlash: true).rendered == "/a%20b/")
    }

    @Test("the request for a path with a trailing slash goes to that exact URL")
    func trailingSlashOnTheWire() throws {
        let server = try Server(baseURL: "http://127.0.0.1:8000", transport: TestTransport(always: .status(200)))
        let request = try server.makeRequest(for: OAuthEndpoint.token(fields: []))
        #expect(request.url.absoluteString == "http://127.0.0.1:8000/o/token/")
    }

    @Test("a form body is application/x-www-form-urlencoded as RFC 6749 Appendix B encodes it")
    func formBody() throws {
        let server = try Server(baseURL: "https://auth.example.com", transport: TestTransport(always: .status(200)))
        let request = try server.makeRequest(for: OAuthEndpoint.token(fields: [
            ("grant_type", "password"), ("username", "kim@example.com"), ("password", "p&ss=w rd+%/é"),
        ]))
        #expect(request.value(forHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self)
            == "grant_type=password&username=kim%40example.com&password=p%26ss%3Dw+rd%2B%25%2F%C3%A9")
    }

    @Test("an RFC 6749 error body fills the server's code and message")
    func oauthErrorBody() async throws {
        let transport = TestTransport(always: .json(400, #"{"error":"invalid_grant","error_description":"The refresh token is invalid"}"#))
        let server = try Server(baseURL: "https://auth.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(OAuthEndpoint.token(fields: [("grant_type", "refresh_token")]))
        }
        #expect(error?.statusCode == 400)
        #expect(error?.serverErrorCode == .invalidGrant)
        #expect(error?.serverMessage == "The refresh token is invalid")
        #expect(error?.responseSnippet == nil)
    }

    @Test("an RFC 6750 WWW-Authenticate challenge fills the server's code and message when the body says nothing")
    func bearerChallenge() async throws {
        let challenge = #"Bearer realm="api", error="invalid_token", error_description="The access token \"expired\""#
        let transport = TestTransport(always: TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": challenge]))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("abc"))
        }
        #expect(error?.serverErrorCode == .invalidToken)
        #expect(error?.serverMessage == #"The access token "expired""#)
        #expect(error?.isAuthenticationFailure == true)
    }

    @Test("a challenge without an error parameter, or of another scheme, gives no code")
    func challengeWithoutError() async throws {
        for challenge in [#"Bearer realm="api""#, #"Basic realm="api", error="invalid_token""#, "Bearer"] {
            let transport = TestTransport(always: TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": challenge]))
            let server = try Server(baseURL: "https://api.example.com", transport: transport)
            let error = await #expect(throws: NetworkError.self) {
                try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("abc"))
            }
            #expect(error?.serverErrorCode == nil, "\(challenge)")
        }
    }

    @Test("a Bearer challenge later in a list of challenges is found; its code wins over a framework's generic body")
    func challengeList() async throws {
        let challenge = #"Basic realm="x, y", Bearer error="invalid_token", error_description="a, b""#
        let transport = TestTransport(always: TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": challenge],
                                                                 body: Data(#"{"error":"Unauthorized"}"#.utf8)))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("token-abc-123"))
        }
        #expect(error?.serverErrorCode == .invalidToken)
        #expect(error?.serverMessage == "a, b")
        #expect(error.map { AuthenticationFailurePolicy.strictBearerChallenge.matches($0) } == true)
    }

    @Test("a server's own error shape is read by a format of its own; the default formats do not claim it")
    func customErrorFormat() async throws {
        struct Reply: Decodable { let reason: String; let detail: String }
        let body = #"{"reason":"session_gone","detail":"log in again"}"#
        var server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .json(401, body)))
        let standard = await #expect(throws: NetworkError.self) { try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("token-abc-123")) }
        #expect(standard?.serverErrorCode == nil)
        #expect(standard?.responseSnippet == body)

        server.errorFormat = ServerErrorFormat { _, data in
            (try? JSONDecoder().decode(Reply.self, from: data)).map { ServerErrorDetails(code: ServerErrorCode(rawValue: $0.reason), message: $0.detail) }
        }
        let custom = await #expect(throws: NetworkError.self) { try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("token-abc-123")) }
        #expect(custom?.serverErrorCode == "session_gone")
        #expect(custom?.serverMessage == "log in again")
    }

    @Test("the app's envelope still decodes under the default format")
    func appEnvelope() async throws {
        let transport = TestTransport(always: .json(401, #"{"error":{"code":"refresh_token_reused","message":"reused"}}"#))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(OAuthEndpoint.item(id: 1), accessToken: AccessToken("token-abc-123")) }
        #expect(error?.serverErrorCode == .refreshTokenReused)
    }

    @Test("a transport error says what the transport reported, redacted")
    func transportCause() {
        let redirects = TransportError(.other, underlying: URLError(.httpTooManyRedirects))
        #expect(redirects.description == "transport error (other): too many HTTP redirects (URLError -1007)")

        struct LeakyError: Error, CustomStringConvertible {
            var description: String { "failed with token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" }
        }
        let leaky = TransportError(.other, underlying: LeakyError())
        #expect(leaky.description == "transport error (other): failed with token <redacted>")
        #expect(TransportError(.timedOut).description == "transport error (timedOut)")
    }
}
