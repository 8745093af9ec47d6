import Foundation
import NetworkService

/// A transport that plays the server in unit tests: a closure answers each request,
/// and every request is recorded for assertions.
final class TestTransport: HTTPTransport {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body: Data = Data()

        static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            headers["Content-Type"] = "application/json"
            return Reply(status: status, headers: headers, body: Data(text.utf8))
        }

        static func status(_ status: Int) -> Reply { Reply(status: status) }
    }

    private let handler: TestMutex<@Sendable (HTTPRequest) async throws -> Reply>
    private let recorded = TestMutex<[HTTPRequest]>([])

    init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> Reply) {
        self.handler = TestMutex(handler)
    }

    /// A transport that cannot connect until ``serve(_:)`` gives it a handler: for a fake
    /// server that owns its transport.
    convenience init() {
        self.init { _ in throw TransportError(.cannotConnect) }
    }

    /// Answers every request from now on with `handler`.
    func serve(_ handler: @escaping @Sendable (HTTPRequest) async throws -> Reply) {
        self.handler.withLock { $0 = handler }
    }

    /// A transport that answers every request with the same reply.
    convenience init(always reply: Reply) {
        self.init { _ in reply }
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        recorded.withLock { $0.append(request) }
        let reply = try await handler.withLock { $0 }(request)
        return (reply.body, HTTPResponse(statusCode: reply.status, headerFields: reply.headers))
    }
}

extension HTTPRequest {
    /// The path and query of the URL, still percent-encoded, e.g. `/v1/posts?pageSize=20`.
    var target: String {
        let text = url.absoluteString
        guard let schemeEnd = text.range(of: "://"),
              let pathStart = text[schemeEnd.upperBound...].firstIndex(of: "/") else { return "/" }
        return String(text[pathStart...])
    }

    /// The JSON body as a dictionary, for asserting what was sent.
    var jsonBody: [String: Any]? {
        guard let body else { return nil }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}
