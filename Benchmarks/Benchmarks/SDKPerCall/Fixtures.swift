import Foundation
import NetworkService

/// The decoded response of every benchmark: a post with two dates, like the app's API returns.
struct Post: Codable, Sendable {
    let id: Int
    let title: String
    let body: String
    let author: String
    let createdAt: Date
    let updatedAt: Date
}

/// `GET /v1/posts/42`, a bearer endpoint without query or body: the common case.
struct PostEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/v1/posts/42" }
}

/// The fixed data every benchmark uses.
enum Fixtures {
    static let baseURL = "https://api.example.com"
    static let accessToken = "bench-access-token-0123456789"
    static let body = Data(#"""
    {"id":42,"title":"A post","body":"Some text for the post body.","author":"kim",\#
    "createdAt":"2026-11-22T10:00:00Z","updatedAt":"2026-11-22T10:05:00Z"}
    """#.utf8)
    static let okResponse = HTTPResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"])
    static let transport = MemoryTransport(body: body, response: okResponse)
}
