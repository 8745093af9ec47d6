public import AppSDKTesting

extension FakeTokenServer {
    /// A loopback HTTP server answering with this fake (its ``beforeAnswer(_:)`` hook is not
    /// awaited there), for a program the test runs in another process; stop it when done.
    public func serveOnLoopback() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { [self] request in
            let reply = answerNow(Request(method: request.method, target: request.target,
                                          headers: request.headers, body: request.body))
            switch reply {
            case let .respond(status, headers, body): return .respond(status: status, headers: headers, body: body)
            case .fail: return .dropConnection
            }
        }
    }
}
