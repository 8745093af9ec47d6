import Foundation
import NetworkService
import Testing

/// Scenarios where no whole response arrives: the transport throws a `TransportError` of
/// the kind that tells a caller whether to retry, and never shows a credential.
extension TransportConformance {
    /// A port nobody listens on is `.cannotConnect` (transient), and fails at once.
    public func refusedConnectionCannotConnect() async throws {
        let closed = try ClosedLoopbackPort()
        defer { closed.release() }
        let started = ContinuousClock.now
        let error = await transportError(sending: request(.get, closed.baseURL, "/v1/ping"),
                                         through: transport(timeout: 10))
        #expect(error?.kind == .cannotConnect, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        #expect(ContinuousClock.now - started < .seconds(5), "a refused connection should fail at once, not at the timeout")
    }

    /// A connection closed before any answer is `.connectionLost`, which `Server.send`
    /// reports as a transient transport error.
    public func droppedConnectionIsConnectionLost() async throws {
        let http = try LoopbackHTTPServer { _ in .dropConnection }
        defer { http.stop() }
        let error = await transportError(sending: request(.delete, http.baseURL, "/v1/samples/4"), through: transport())
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        let networkError = await networkError(sending: .remove(id: 4), through: try server(http))
        #expect(networkError?.kind == .transport)
        #expect(networkError?.isTransient == true, "\(String(describing: networkError))")
    }

    /// A body cut short before its `Content-Length` is `.connectionLost`, not a response
    /// with half a body.
    public func truncatedBodyIsConnectionLost() async throws {
        let http = try LoopbackHTTPServer { _ in .truncate(status: 200, promisedLength: 500, body: Data(#"{"id":1,"#.utf8)) }
        defer { http.stop() }
        let error = await transportError(sending: request(.get, http.baseURL, "/v1/samples/x"), through: transport())
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(error?.isTransient == true)
    }

    /// A server that does not answer within the transport's timeout is `.timedOut`, after
    /// about the timeout and well before the server would have answered. (The upper bound
    /// is loose: a busy machine may resume the test late; a transport that waited for the
    /// answer would get a 204, not an error.)
    public func slowServerTimesOut() async throws {
        let http = try LoopbackHTTPServer { _ in .delayed(8, .respond(status: 204)) }
        defer { http.stop() }
        let started = ContinuousClock.now
        let error = await transportError(sending: request(.delete, http.baseURL, "/v1/samples/4"), through: transport(timeout: 1))
        let waited = ContinuousClock.now - started
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        #expect(waited >= .milliseconds(900) && waited < .seconds(7), "gave up after \(waited)")
    }

    /// Cancelling the task that sends a request cancels the request: `send` throws
    /// `CancellationError` long before the server would have answered.
    public func cancellingTheTaskCancelsTheRequest() async throws {
        let http = try LoopbackHTTPServer { _ in .delayed(10, .respond(status: 204)) }
        defer { http.stop() }
        let transport = transport(timeout: 20)
        let request = request(.get, http.baseURL, "/v1/slow")
        let started = ContinuousClock.now
        let task = Task { try await transport.send(request) }
        while http.requests.isEmpty, ContinuousClock.now - started < .seconds(3) {   // the request is on the wire
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        let result = await task.result
        let waited = ContinuousClock.now - started
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(waited < .seconds(8), "cancelled only after \(waited)")
    }

    /// A task cancelled before it sends throws `CancellationError` at once, and the transport
    /// works afterwards.
    public func cancellingBeforeSendingThrowsAtOnce() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let transport = transport()
        let request = request(.get, http.baseURL, "/v1/ping")
        let task = Task<(Data, HTTPResponse), any Error> {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        let (_, response) = try await transport.send(request)
        #expect(response.statusCode == 204)
    }

    /// Endless redirects fail with `.other` (not transient) whose cause says so.
    public func endlessRedirectsFail() async throws {
        let http = try LoopbackHTTPServer { request in
            let hop = Int(request.target.split(separator: "/").last ?? "") ?? 0
            guard hop < 60 else { return .respond(status: 508) }   // a transport that never stops gets an answer
            return .respond(status: 302, headers: ["Location": "http://\(request.header("Host") ?? "127.0.0.1")/loop/\(hop + 1)"])
        }
        defer { http.stop() }
        let error = await transportError(sending: request(.get, http.baseURL, "/loop/0"), through: transport())
        #expect(error?.kind == .other, "\(String(describing: error))")
        #expect(error?.isTransient == false)
        #expect(error?.cause?.localizedCaseInsensitiveContains("redirect") == true, "\(String(describing: error?.cause))")
    }

    /// The errors of failed requests that carried an `Authorization` header (and a custom
    /// secret header) show neither value: not in `description`, `debugDescription`, `dump`
    /// or `cause`, whether read from the `TransportError` or the `NetworkError`.
    public func errorsNeverShowTheAuthorizationHeader() async throws {
        let dropping = try LoopbackHTTPServer { _ in .dropConnection }
        defer { dropping.stop() }
        let refused = try ClosedLoopbackPort()
        defer { refused.release() }
        let headers = ["Authorization": "Bearer \(Self.token.rawValue)", "X-Api-Key": Self.shortSecret,
                       "X-Note": "Bearer \(Self.shortSecret)"]
        var texts: [String] = []
        for baseURL in [dropping.baseURL, refused.baseURL] {
            let error = await transportError(sending: request(.get, baseURL, "/v1/me", headers: headers), through: transport())
            guard let error else { continue }
            var dumped = ""
            dump(error, to: &dumped)
            texts += [String(describing: error), String(reflecting: error), dumped, error.cause ?? ""]
            if let underlying = error.underlying {
                texts += [String(describing: underlying), String(reflecting: underlying)]
            }
        }
        let networkError = await networkError(sending: .remove(id: 1), through: try server(dropping))
        if let networkError {
            var dumped = ""
            dump(networkError, to: &dumped)
            texts += [String(describing: networkError), String(reflecting: networkError), dumped]
        }
        #expect(texts.count >= 8)
        for text in texts {
            #expect(!text.contains(Self.token.rawValue), "\(text)")
            #expect(!text.contains(Self.shortSecret), "\(text)")
        }
    }
}
