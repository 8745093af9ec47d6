import Foundation
import NetworkService

/// A transport that answers every request from memory with one fixed response: no sockets,
/// no server, so a benchmark measures only the SDK's own work.
struct MemoryTransport: HTTPTransport {
    let body: Data
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        (body, response)
    }
}
