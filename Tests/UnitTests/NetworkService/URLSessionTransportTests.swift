import Foundation
import NetworkService
import Testing

@Suite("URLSession transport against a loopback HTTP server")
struct URLSessionTransportTests {
    let token = AccessToken("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl")

    @Test("a GET with a query and a bearer token reaches the server as written, and the JSON answer decodes")
    func getWithQuery() async throws {
        let http = try LoopbackHTTPServer { _ in .json(200, #"{"id":3,"content":"ok","createdAt":"2026-11-28T08:00:00Z"}"#) }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        let sample: Sample = try await server.send(SampleEndpoint.search(filters: [.equal("q", "a b&c"), .pageSize(2)]),
                                                   accessToken: token)
        #expect(sample.id == 3)
        let request = try #require(http.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/v1/samples?q=eq.a%20b%26c&pageSize=2")
        #expect(request.header("Authorization") == "Bearer \(token.rawValue)")
    }

    @Test("a POST body arrives intact and a 201 decodes")
    func postBody() async throws {
        let http = try LoopbackHTTPServer { request in
            .json(201, #"{"id":9,"content":"\#(String(decoding: request.body, as: UTF8.self).count)","createdAt":"2026-11-28T08:00:00Z"}"#)
        }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        let body = SampleBody(content: "한글 & more", isAnonymous: false, createdAt: Date(timeIntervalSince1970: 0))
        let sample: Sample = try await server.send(SampleEndpoint.create(body), accessToken: token)
        #expect(sample.id == 9)
        let received = try #require(http.requests.first)
        let decoded = try JSONCoding.makeDecoder().decode(SampleBody.self, from: received.body)
        #expect(decoded == body)
    }

    @Test("204 No Content succeeds")
    func noContent() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        try await server.send(SampleEndpoint.remove(id: 4), accessToken: token)
        #expect(http.requests.first?.method == "DELETE")
    }

    @Test("a 401 with a Bearer challenge is an authentication failure with its code")
    func unauthorized() async throws {
        let http = try LoopbackHTTPServer { _ in
            .json(401, #"{"error":{"code":"token_expired","message":"expired"}}"#,
                  headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 4), accessToken: token) }
        #expect(error?.isAuthenticationFailure == true)
        #expect(error?.serverErrorCode == .tokenExpired)
        #expect(error?.authenticateChallenge?.hasPrefix("Bearer") == true)
    }

    @Test("a dropped connection is a transient transport error")
    func droppedConnection() async throws {
        let http = try LoopbackHTTPServer { _ in .dropConnection }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 4), accessToken: token) }
        #expect(error?.kind == .transport)
        #expect(error?.isTransient == true, "\(String(describing: error))")
    }

    @Test("a body cut short before its Content-Length is a transient transport error")
    func truncatedBody() async throws {
        let http = try LoopbackHTTPServer { _ in .truncate(status: 200, promisedLength: 500, body: Data(#"{"id":1,"#.utf8)) }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 5))
        let error = await #expect(throws: NetworkError.self) {
            let _: Sample = try await server.send(SampleEndpoint.item(name: "x"), accessToken: token)
        }
        #expect(error?.kind == .transport, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        #expect(error?.isAuthenticationFailure == false)
    }

    @Test("a server that does not answer in time is a timeout")
    func timeout() async throws {
        let http = try LoopbackHTTPServer { _ in .delayed(4, .respond(status: 204)) }
        defer { http.stop() }
        let server = try Server(baseURL: http.baseURL, transport: URLSessionTransport(timeout: 1))
        let started = ContinuousClock.now
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 4), accessToken: token) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(900) && waited < .seconds(4), "gave up after \(waited)")
        #expect((error?.underlying as? TransportError)?.kind == .timedOut, "\(String(describing: error))")
        #expect(error?.isTransient == true)
    }

    @Test("a port nobody listens on is a transient cannot-connect error")
    func refused() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        let closedPort = http.port
        http.stop()
        let server = try Server(baseURL: "http://127.0.0.1:\(closedPort)", transport: URLSessionTransport(timeout: 5))
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 4), accessToken: token) }
        #expect((error?.underlying as? TransportError)?.kind == .cannotConnect, "\(String(describing: error))")
        #expect(error?.isTransient == true)
    }
}
