public import AppSDKTesting
import Foundation

extension FakeTokenServer {
    /// A loopback HTTP server answering with this fake (its ``beforeAnswer(_:)`` hook is not
    /// awaited there), for a program the test runs in another process; stop it when done.
    public func serveOnLoopback() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { [self] request in answerNow(Request(loopback: request)).loopback }
    }

    /// Waits until a request for `path` has arrived (a test that races a program against
    /// another waits for the first one to get there); whether it did within `seconds`.
    public func waitForRequest(_ path: String, seconds: Double = 30) async throws -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if requests.contains(where: { $0.path == path }) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}

extension FakeTokenServer.Request {
    /// The request a loopback HTTP server read (it has one origin: none is named).
    public init(loopback request: LoopbackHTTPServer.Request) {
        self.init(method: request.method, target: request.target, headers: request.headers, body: request.body)
    }
}

extension FakeTokenServer.Reply {
    /// This answer as a loopback HTTP server gives it (a transport failure drops the connection).
    public var loopback: LoopbackHTTPServer.Reply {
        switch self {
        case let .respond(status, headers, body): .respond(status: status, headers: headers, body: body)
        case .fail: .dropConnection
        case let .delayed(seconds, reply): .delayed(seconds, reply.loopback)
        }
    }
}
