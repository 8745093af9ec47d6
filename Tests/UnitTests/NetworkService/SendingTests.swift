import Foundation
import NetworkService
import Testing

@Suite("Sending, encoding and decoding")
struct SendingTests {
    let token = AccessToken("header.payload.signature-abc123")
    let createdAt = Date(timeIntervalSince1970: 1_795_852_800)   // 2026-11-28T08:00:00Z

    @Test("a JSON body is encoded with camelCase keys and RFC 3339 dates, with the headers the contract needs")
    func bodyEncoding() async throws {
        let transport = TestTransport(always: .json(201, #"{"id":1,"content":"hi","createdAt":"2026-11-28T08:00:00Z"}"#))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let sample: Sample = try await server.send(
            SampleEndpoint.create(SampleBody(content: "hi", isAnonymous: true, createdAt: createdAt)), accessToken: token)
        #expect(sample == Sample(id: 1, content: "hi", createdAt: createdAt))

        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.target == "/v1/samples")
        #expect(request.value(forHeaderField: "content-type") == "application/json")
        #expect(request.value(forHeaderField: "accept") == "application/json")
        #expect(request.value(forHeaderField: "authorization") == "Bearer header.payload.signature-abc123")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self)
            == #"{"content":"hi","createdAt":"2026-11-28T08:00:00Z","isAnonymous":true}"#)
    }

    @Test("dates with fractional seconds or an offset still decode")
    func lenientDates() throws {
        let decoder = JSONCoding.makeDecoder()
        let fractional = try decoder.decode(Sample.self, from: Data(#"{"id":1,"content":"","createdAt":"2026-11-28T08:00:00.250Z"}"#.utf8))
        #expect(abs(fractional.createdAt.timeIntervalSince(createdAt) - 0.25) < 0.001)
        let offset = try decoder.decode(Sample.self, from: Data(#"{"id":1,"content":"","createdAt":"2026-11-28T17:00:00+09:00"}"#.utf8))
        #expect(offset.createdAt == createdAt)
    }

    @Test("a public endpoint sends no Authorization header")
    func publicEndpoint() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        try await server.send(SampleEndpoint.publicPing)
        #expect(transport.requests.first?.value(forHeaderField: "Authorization") == nil)
    }

    @Test("a bearer endpoint without a token fails before anything is sent")
    func missingToken() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 1)) }
        #expect(error?.kind == .invalidRequest)
        #expect(transport.requests.isEmpty)
    }

    @Test("an error body decodes into the server's code and message")
    func errorBody() async throws {
        let transport = TestTransport(always: .json(409, #"{"error":{"code":"email_taken","message":"email is taken"}}"#))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 7), accessToken: token) }
        #expect(error?.kind == .httpStatus)
        #expect(error?.statusCode == 409)
        #expect(error?.serverErrorCode == .emailTaken)
        #expect(error?.serverMessage == "email is taken")
        #expect(error?.method == .delete)
        #expect(error?.path == "/v1/samples/7")
        #expect(error?.description == #"DELETE /v1/samples/7 failed: HTTP 409 email_taken "email is taken""#)
    }

    @Test("an unknown server error code still decodes as itself")
    func unknownErrorCode() async throws {
        let transport = TestTransport(always: .json(400, #"{"error":{"code":"quota_exceeded_v2","message":"later"}}"#))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 7), accessToken: token) }
        #expect(error?.serverErrorCode == ServerErrorCode(rawValue: "quota_exceeded_v2"))
    }

    @Test("a 2xx body that is empty, HTML or truncated is a decoding error naming the endpoint and status, quoting none of it",
          arguments: [
              ("", "the body was empty"),
              ("<html><body>Gateway</body></html>", "the body (33 bytes, application/json) is not quoted"),
              (#"{"id":1,"content":"hel"#, "not valid JSON"),
              (#"{"id":"one"}"#, "at id"),
          ])
    func undecodableSuccessBody(body: String, expected: String) async throws {
        let transport = TestTransport(always: .json(200, body))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            let _: Sample = try await server.send(SampleEndpoint.item(name: "x"), accessToken: token)
        }
        #expect(error?.kind == .decoding)
        #expect(error?.statusCode == 200)
        let description = error?.description ?? ""
        #expect(description.hasPrefix("GET /v1/samples/x failed: HTTP 200 with a body that is not the expected response"))
        #expect(description.contains(expected), "\(description)")
    }

    @Test("the snippet of a long unexpected body is short and redacted")
    func longBodySnippet() async throws {
        let body = "<html>" + String(repeating: "proxy error ", count: 100) + "</html>"
        let transport = TestTransport(always: .json(502, body))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 1), accessToken: token) }
        let snippet = try #require(error?.responseSnippet)
        #expect(snippet.count <= 81)
        #expect(error?.serverErrorCode == nil)
    }

    @Test("a transport failure keeps the transport error underneath")
    func transportFailure() async throws {
        let transport = TestTransport { _ in throw TransportError(.timedOut) }
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 1), accessToken: token) }
        #expect(error?.kind == .transport)
        #expect((error?.underlying as? TransportError)?.kind == .timedOut)
        #expect(error?.isTransient == true)
        #expect(error?.description == "DELETE /v1/samples/1 failed: transport error (timedOut)")
    }
}
