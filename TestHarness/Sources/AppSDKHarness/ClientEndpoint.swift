public import NetworkService

/// What `/api/client/` of the OAuth test server answers: the token's client, and its user
/// when it has one (a client-credentials token has none).
public struct TokenOwner: Decodable, Sendable, Equatable {
    /// The client the token was issued to.
    public let clientID: String
    /// The token's scopes, space-separated.
    public let scope: String
    /// The resource owner, `nil` for a client-credentials token.
    public let username: String?

    /// What the server answers for a token of `clientID` with `scope`, for `username`.
    public init(clientID: String, scope: String, username: String?) {
        self.clientID = clientID
        self.scope = scope
        self.username = username
    }
}

/// `GET /api/client/` of the OAuth test server, for any live access token (client
/// credentials included); a 401 with a Bearer challenge for a dead one, like `/api/me/`.
public struct ClientEndpoint: Endpoint {
    /// The endpoint.
    public init() {}
    /// GET.
    public var method: HTTPMethod { .get }
    /// `/api/client/`.
    public var path: EndpointPath { "/api/client/" }
}
