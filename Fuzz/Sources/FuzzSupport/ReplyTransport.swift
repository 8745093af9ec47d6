public import Foundation
public import NetworkService

/// A transport that plays a server answering every request with one fixed response: the
/// fuzzer's bytes as the body of a reply whose status and headers the target chooses.
public struct ReplyTransport: HTTPTransport {
    /// The body of every answer.
    public let body: Data
    /// The head of every answer.
    public let response: HTTPResponse

    /// A transport answering `body` with `status` and `headers`.
    public init(body: Data, status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"]) {
        self.body = body
        self.response = HTTPResponse(statusCode: status, headerFields: headers)
    }

    /// The fixed answer, whatever `request` is.
    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        (body, response)
    }
}
