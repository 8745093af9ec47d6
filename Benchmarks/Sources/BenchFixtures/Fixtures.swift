public import Foundation
public import NetworkService
public import TokenStore

/// The decoded response of every benchmark: a post with two dates, like the app's API returns.
public struct Post: Codable, Sendable {
    public let id: Int
    public let title: String
    public let body: String
    public let author: String
    public let createdAt: Date
    public let updatedAt: Date
}

/// `GET /v1/posts/42`, a bearer endpoint without query or body: the common case.
public struct PostEndpoint: Endpoint {
    /// Creates the endpoint.
    public init() {}
    public var method: HTTPMethod { .get }
    public var path: EndpointPath { "/v1/posts/42" }
}

/// The fixed data every benchmark uses.
public enum Fixtures {
    public static let baseURL = "https://api.example.com"
    public static let accessToken = "bench-access-token-0123456789"
    public static let body = Data(#"""
    {"id":42,"title":"A post","body":"Some text for the post body.","author":"kim",\#
    "createdAt":"2026-11-22T10:00:00Z","updatedAt":"2026-11-22T10:05:00Z"}
    """#.utf8)
    public static let okResponse = HTTPResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"])
    public static let transport = MemoryTransport(body: body, response: okResponse)
    /// The JSON preset's refresh path the refresh benchmarks use.
    public static let refreshPath = "/token/refresh"
    /// Credentials valid for a day: no call refreshes.
    public static var freshCredentials: Credentials {
        Credentials(accessToken: AccessToken(accessToken), refreshToken: "bench-refresh-token",
                    accessTokenExpiresAt: Date().addingTimeInterval(86_400), accountID: "kim")
    }
    /// Credentials expiring in 10 seconds, within the 30-second margin of ``Sessions/service(store:)``: the next call refreshes.
    public static var dueCredentials: Credentials {
        Credentials(accessToken: AccessToken("bench-access-token-due"), refreshToken: "bench-refresh-token-due",
                    accessTokenExpiresAt: Date().addingTimeInterval(10), accountID: "kim")
    }
}
