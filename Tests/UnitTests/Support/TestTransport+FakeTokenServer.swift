import AppSDKHarness
import Foundation
import NetworkService

extension TestTransport {
    /// A test transport answered by `fake`: each request is recorded by both (with the origin
    /// it was sent to), a ``FakeTokenServer/Reply/fail(_:)`` answer throws that transport error
    /// and a delayed one waits first.
    convenience init(serving fake: FakeTokenServer) {
        self.init { request in
            try await Self.deliver(await fake.answer(FakeTokenServer.Request(
                method: request.method.rawValue, target: request.target, headers: request.headerFields,
                body: request.body ?? Data(), origin: request.origin)))
        }
    }

    private static func deliver(_ answer: FakeTokenServer.Reply) async throws -> Reply {
        switch answer {
        case let .respond(status, headers, body): return Reply(status: status, headers: headers, body: body)
        case let .fail(kind): throw TransportError(kind)
        case let .delayed(seconds, reply):
            try await Task.sleep(for: .seconds(seconds))
            return try await deliver(reply)
        }
    }
}

extension HTTPRequest {
    /// The scheme, host and port of the URL, for example `https://api.example.test`.
    var origin: String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
