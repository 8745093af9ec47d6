import Foundation
import NetworkService
import Testing

/// Numbers from the network or from a caller are bounded before any arithmetic, so none traps.
@Suite("Numbers from the network or a caller are bounded")
struct NumberBoundsTests {
    @Test("a timeout is kept within a millisecond and a day; NaN is the default")
    func timeouts() {
        #expect(TransportLimits.boundedTimeout(1e18) == 86_400)
        #expect(TransportLimits.boundedTimeout(.infinity) == 86_400)
        #expect(TransportLimits.boundedTimeout(-.infinity) == 0.001)
        #expect(TransportLimits.boundedTimeout(0) == 0.001)
        #expect(TransportLimits.boundedTimeout(.nan) == 30)
        #expect(TransportLimits.boundedTimeout(12.5) == 12.5)
        #expect(TransportLimits.boundedMaximumResponseBytes(-5) == 0)
        #expect(TransportLimits.boundedMaximumResponseBytes(.max) == .max)
    }

    @Test("a Retry-After of any size, or a date in the year 9999, is at most a day, and the error prints",
          arguments: [("9223372036854775807", 86_400.0), ("184467440737095516150", 86_400), ("Fri, 31 Dec 9999 23:59:59 GMT", 86_400),
                      ("86401", 86_400), ("120", 120), ("0", 0)])
    func retryAfter(header: String, expected: TimeInterval) async throws {
        let transport = TestTransport(always: .json(429, #"{"error":{"code":"rate_limited","message":"slow down"}}"#,
                                                    headers: ["Retry-After": header]))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t"))
        }
        #expect(error?.retryAfter == expected)
        #expect(error?.description.contains("retry after \(Int(expected)) s") == true, "\(String(describing: error))")
    }

    @Test("a Retry-After that is neither delay-seconds nor a date is ignored", arguments: ["-5", "1e9", "soon", "12 s", ""])
    func invalidRetryAfter(header: String) async throws {
        let transport = TestTransport(always: .json(503, #"{"error":{"code":"unavailable","message":"later"}}"#,
                                                    headers: ["Retry-After": header]))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t"))
        }
        #expect(error?.retryAfter == nil)
        #expect(error?.isTransient == true)
    }

    @Test("an error made with an infinite, NaN or negative retry delay bounds it and prints")
    func errorInitBoundsRetryAfter() {
        func error(_ retryAfter: TimeInterval) -> NetworkError {
            NetworkError(kind: .httpStatus, method: .get, path: "/v1/posts", statusCode: 503, retryAfter: retryAfter)
        }
        #expect(error(.infinity).retryAfter == 86_400)
        #expect(error(.infinity).description.hasSuffix("retry after 86400 s"))
        #expect(error(.greatestFiniteMagnitude).retryAfter == 86_400)
        #expect(error(.nan).retryAfter == nil)
        #expect(!error(.nan).description.contains("retry after"))
        #expect(error(-3).retryAfter == 0)
        #expect(error(1.2).description.hasSuffix("retry after 2 s"))
    }

    @Test("the transports' refusals describe themselves with their numbers")
    func refusalDescriptions() {
        let tooLarge = TransportError.responseTooLarge(limit: 65_536, announcedLength: 1 << 30)
        #expect(tooLarge.cause == "the response body is larger than the 65536 bytes the transport accepts (Content-Length 1073741824)")
        let deadline = TransportError.deadlineExceeded(timeout: 1e18)
        #expect(deadline.cause == "the whole request took longer than its 1e+18 s timeout")
        #expect(TransportError.deadlineExceeded(timeout: 2.5).description.contains("2.5 s"))
    }
}
