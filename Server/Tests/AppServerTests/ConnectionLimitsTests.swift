import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Connection-level limits and rejections (live server)")
struct ConnectionLimitsTests {
    static func live<T: Sendable>(idleTimeout: Int = 60, maxConnections: Int = ServerConfiguration.defaultMaxConnections,
                                  _ body: @Sendable (Int, API) async throws -> T) async throws -> T {
        var configuration = TestServer.configuration()
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.maxConnections = maxConnections
        return try await TestServer.run(.live, configuration: configuration) { api in
            try await body(try #require(api.client.port), api)
        }
    }

    static func errorBody(_ response: String) -> ErrorBodyDTO? {
        guard let range = response.range(of: "\r\n\r\n") else { return nil }
        return try? JSONBody.makeDecoder().decode(ErrorBodyDTO.self, from: Data(response[range.upperBound...].utf8))
    }

    /// Issue 11: these were 400 with an empty body (Hummingbird answers NIO's parser errors itself).
    @Test("requests NIO's parser refuses get 400 with the contract's error body")
    func parserErrors() async throws {
        try await Self.live { port, _ in
            let requests: [(String, String)] = [
                ("FOO /v1/posts HTTP/1.1\r\nHost: x\r\n\r\n", "method:"),
                ("GET /v1/" + String(repeating: "a", count: 1 << 20) + " HTTP/1.1\r\nHost: x\r\n\r\n", "headers:"),
                ("GET /v1/posts HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n", "headers:"),
                ("GET /v1/posts HTTP/1.1\r\nHost: x\r\n" + (0..<5000).map { "X-\($0): y\r\n" }.joined() + "\r\n", "headers:"),
            ]
            for (request, field) in requests {
                let socket = try RawSocket(port: port)
                await socket.send(request)
                let response = await socket.readUntilClosed(timeout: 10)
                #expect(response.text.hasPrefix("HTTP/1.1 400 "), "\(field) \(request.count) \(response.closed) \(response.seconds) \(response.text.prefix(100))")
                #expect(response.text.lowercased().contains("content-type: application/json"))
                let body = try #require(Self.errorBody(response.text), "\(response.text.prefix(300))")
                #expect(body.error.code == "invalid_request")
                #expect(body.error.message.hasPrefix(field))
                #expect(response.closed)
            }
        }
    }

    @Test("methods the parser knows but no route serves get a JSON 405 from the router")
    func unknownRouteMethod() async throws {
        try await Self.live { _, api in
            let response = try await api.send(.init("PROPFIND")!, "/v1/posts")
            #expect(response.status == .methodNotAllowed)
            #expect(response.errorCode == "invalid_request")
        }
    }

    /// Issue 11: half-sent requests were kept open forever.
    @Test("half-sent headers, a stalled body and an idle keep-alive connection are closed after the idle timeout")
    func idleTimeout() async throws {
        try await Self.live(idleTimeout: 1) { port, _ in
            let halfHeaders = try RawSocket(port: port)
            await halfHeaders.send("GET /v1/posts HTTP/1.1\r\nHost: x\r\n")
            let stalledBody = try RawSocket(port: port)
            await stalledBody.send("POST /v1/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n{\"email\":")
            let idle = try RawSocket(port: port)
            await idle.send("GET /v1/questions HTTP/1.1\r\nHost: x\r\n\r\n")
            for (index, socket) in [halfHeaders, stalledBody, idle].enumerated() {
                let result = await socket.readUntilClosed(timeout: 10)
                #expect(result.closed, "\(index)")
                #expect(result.seconds < 5)
            }
        }
    }

    /// Issue 11: with 400 half-open connections a normal request timed out (no limit, no timeout).
    @Test("past the connection limit a new connection is closed at once; once a slot frees, requests are served again")
    func connectionLimit() async throws {
        try await Self.live(maxConnections: 2) { port, _ in
            var holders: [RawSocket] = []
            for _ in 0..<2 {
                let socket = try RawSocket(port: port)
                await socket.send("GET /v1/posts HTTP/1.1\r\nHost: x\r\n")   // half-sent: holds its slot
                holders.append(socket)
            }
            try await Task.sleep(for: .milliseconds(300))
            let refused = try RawSocket(port: port)
            await refused.send("GET /v1/questions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let early = await refused.readUntilClosed(timeout: 5)
            #expect(early.closed && early.text.isEmpty, "served past the limit: \(early.text.prefix(40))")
            #expect(early.seconds < 2)

            holders.removeFirst()   // closes one held connection
            try await Task.sleep(for: .milliseconds(300))
            let next = try RawSocket(port: port)
            await next.send("GET /v1/questions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let served = await next.readUntilClosed(timeout: 10)
            #expect(served.text.hasPrefix("HTTP/1.1 401"), "\(served.text.prefix(80))")
        }
    }

    @Test("idle timeout and connection limit are bounded configuration values")
    func bounds() {
        var configuration = TestServer.configuration()
        #expect(configuration.idleTimeout == .seconds(60))
        configuration.idleTimeout = .zero
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.idleTimeout = .seconds(Int.max)
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.idleTimeout = .seconds(60)
        configuration.maxConnections = 0
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.maxConnections = 100_001
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }
}
