import Foundation
import NetworkService
import Testing

/// A hostile server cannot exhaust the client: a body past the transport's limit is refused
/// and the transport stops reading, a server that trickles bytes cannot stretch the timeout,
/// and an absurd `Retry-After` is bounded.
extension TransportConformance {
    /// 64 KiB: the small limit these scenarios set.
    static let smallLimit = 64 * 1024

    /// A chunked body that never ends (16 KiB every millisecond) fails with
    /// `.responseTooLarge`, naming the limit, long before the timeout; and the client stopped
    /// reading: the server's writes failed soon after, having sent little more than the
    /// limit (what the sockets' buffers hold), where a client that kept reading would take
    /// 16 MB a second until its timeout.
    public func endlessBodyIsRefusedPastTheLimit() async throws {
        let http = try LoopbackHTTPServer { _ in .stream(status: 200, chunk: Data(repeating: 0x78, count: 16 * 1024), interval: 0.001) }
        defer { http.stop() }
        let started = ContinuousClock.now
        let error = await transportError(sending: request(.get, http.baseURL, "/v1/endless"),
                                         through: transport(timeout: 5, maximumResponseBytes: Self.smallLimit))
        #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        #expect(error?.isTransient == false)
        #expect((error?.underlying as? ResponseTooLarge)?.limit == Self.smallLimit)
        #expect(error?.cause?.contains("\(Self.smallLimit) bytes") == true, "\(String(describing: error?.cause))")
        #expect(ContinuousClock.now - started < .seconds(3), "refused only after \(ContinuousClock.now - started)")
        let stopped = try await http.waitForReplies(1, timeout: 10)
        #expect(stopped, "the client still reads the endless body: \(http.bytesSent) bytes sent")
        #expect(http.bytesSent < Self.smallLimit + 8 * 1024 * 1024, "the server sent \(http.bytesSent) bytes")
    }

    /// A `Content-Length` over the limit is refused at the head: at once, with the announced
    /// length, while the body trickles (a transport that read it would wait for the timeout).
    public func announcedOversizedBodyIsRefusedAtTheHead() async throws {
        let http = try LoopbackHTTPServer { _ in
            .stream(status: 200, announcedLength: 1 << 30, chunk: Data(repeating: 0x78, count: 1024), interval: 0.05, count: 200)
        }
        defer { http.stop() }
        let started = ContinuousClock.now
        let error = await transportError(sending: request(.get, http.baseURL, "/v1/huge"),
                                         through: transport(timeout: 5, maximumResponseBytes: Self.smallLimit))
        #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        #expect((error?.underlying as? ResponseTooLarge)?.announcedLength == 1 << 30)
        #expect(ContinuousClock.now - started < .seconds(3), "refused only after \(ContinuousClock.now - started)")
        #expect(http.bytesSent < Self.smallLimit)
    }

    /// A finished body over the limit without `Content-Length` (256 KiB, chunked) is
    /// refused; one of exactly the limit, chunked or not, comes back whole.
    public func bodyOverTheLimitIsRefusedAndAtTheLimitAccepted() async throws {
        let chunk = Data(repeating: 0x79, count: 16 * 1024)
        let http = try LoopbackHTTPServer { request in
            switch request.target {
            case "/over": .stream(status: 200, chunk: chunk, count: 16)
            case "/chunked-at-limit": .stream(status: 200, chunk: chunk, count: 4)
            default: .respond(status: 200, body: Data(repeating: 0x7A, count: Self.smallLimit))
            }
        }
        defer { http.stop() }
        let transport = transport(maximumResponseBytes: Self.smallLimit)
        let error = await transportError(sending: request(.get, http.baseURL, "/over"), through: transport)
        #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        for target in ["/chunked-at-limit", "/at-limit"] {
            let (data, response) = try await transport.send(request(.get, http.baseURL, target))
            #expect(response.statusCode == 200)
            #expect(data.count == Self.smallLimit, "\(target)")
        }
    }

    /// A server that sends one byte every 200 ms (a 50-byte answer over 10 s) cannot stretch
    /// a 1-second timeout: the request fails with `.timedOut` after about a second.
    public func tricklingServerCannotStretchTheTimeout() async throws {
        let http = try LoopbackHTTPServer { _ in
            .stream(status: 200, announcedLength: 50, chunk: Data("x".utf8), interval: 0.2, count: 50)
        }
        defer { http.stop() }
        let started = ContinuousClock.now
        let error = await transportError(sending: request(.get, http.baseURL, "/v1/trickle"), through: transport(timeout: 1))
        let waited = ContinuousClock.now - started
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        #expect(waited >= .milliseconds(900) && waited < .seconds(5), "gave up after \(waited)")
    }

    /// `Retry-After` values no client should wait for (the largest 64-bit integer, more
    /// digits than that, a date in the year 9999) become one day, and the error, its
    /// description and `isTransient` work; a value that is not a delay is ignored.
    public func absurdRetryAfterIsBounded() async throws {
        let values = ["9223372036854775807", "99999999999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT", "-5", "soon"]
        let http = try LoopbackHTTPServer { request in
            let index = Int(request.target.split(separator: "/").last ?? "") ?? 0
            return .json(503, #"{"error":{"code":"unavailable","message":"later"}}"#, headers: ["Retry-After": values[index]])
        }
        defer { http.stop() }
        let server = try server(http)
        for (index, value) in values.enumerated() {
            let error = await networkError(sending: .remove(id: index), through: server)
            let expected: TimeInterval? = index < 3 ? 86_400 : nil
            #expect(error?.retryAfter == expected, "Retry-After: \(value)")
            #expect(error?.isTransient == true)
            let text = String(describing: error)
            #expect(text.contains("HTTP 503"), "\(text)")
            #expect(text.contains("retry after 86400 s") == (expected != nil), "\(text)")
        }
    }
}
