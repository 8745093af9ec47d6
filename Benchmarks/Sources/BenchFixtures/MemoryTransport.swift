public import Foundation
public import NetworkService

/// A transport that answers every request from memory with one fixed response: no sockets,
/// no server, so a benchmark measures only the SDK's own work.
public struct MemoryTransport: HTTPTransport {
    public let body: Data
    public let response: HTTPResponse

    /// A transport answering `body` and `response` to every request.
    public init(body: Data, response: HTTPResponse) {
        self.body = body
        self.response = response
    }

    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        (body, response)
    }
}
