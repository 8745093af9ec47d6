import AppSDKHarness
import Foundation
import NetworkService

extension TestTransport {
    /// A test transport answered by `fake`: each request is recorded by both, and a
    /// ``FakeTokenServer/Reply/fail(_:)`` answer throws that transport error.
    convenience init(serving fake: FakeTokenServer) {
        self.init { request in
            let answer = await fake.answer(FakeTokenServer.Request(
                method: request.method.rawValue, target: request.target, headers: request.headerFields,
                body: request.body ?? Data()))
            switch answer {
            case let .respond(status, headers, body): return Reply(status: status, headers: headers, body: body)
            case let .fail(kind): throw TransportError(kind)
            }
        }
    }
}
