import Foundation
public import NetworkService

/// A refresh call to a JSON server that is neither the app's nor OAuth 2.0: one POST with the
/// refresh token in a JSON field, tokens read from the reply by field names (a dotted name
/// reaches into nested objects).
///
/// For example djangorestframework-simplejwt (`POST /api/token/refresh/` with `{"refresh": …}`,
/// answering `{"access": …, "refresh": …}` with no expiry, which then comes from the JWT's `exp`):
///
/// ```swift
/// let refresh = JSONTokenRefresh(path: "/api/token/refresh/", refreshTokenField: "refresh",
///                                accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
/// let service = RepositoryService(server: server, tokenStore: store, configuration: .json(refresh))
/// ```
public struct JSONTokenRefresh: Sendable {
    /// The refresh endpoint's path.
    public var path: EndpointPath
    /// The request body's field that carries the refresh token.
    public var refreshTokenField: String
    /// More fields to send, for example a client id.
    public var extraFields: [String: String]
    /// Where the reply holds the access token, e.g. `access_token` or `tokens.accessToken`.
    public var accessTokenKey: String
    /// Where the reply holds the rotated refresh token; when it is `nil` or absent from the reply, the old one is kept.
    public var refreshTokenKey: String?
    /// Where the reply holds the lifetime in seconds; when `nil` or absent, the expiry comes
    /// from the access token's JWT `exp`, or is unknown.
    public var expiresInKey: String?
    /// Which failures end the session. Default ``RefreshFailureRule/rejectedByServer`` (401, or 400 `invalid_grant`).
    public var failureRule: RefreshFailureRule

    /// Creates a description of the refresh call; the defaults are OAuth-style snake_case names.
    public init(path: EndpointPath, refreshTokenField: String = "refresh_token", extraFields: [String: String] = [:],
                accessTokenKey: String = "access_token", refreshTokenKey: String? = "refresh_token",
                expiresInKey: String? = "expires_in", failureRule: RefreshFailureRule = .rejectedByServer) {
        self.path = path
        self.refreshTokenField = refreshTokenField
        self.extraFields = extraFields
        self.accessTokenKey = accessTokenKey
        self.refreshTokenKey = refreshTokenKey
        self.expiresInKey = expiresInKey
        self.failureRule = failureRule
    }

    /// Sends the refresh call and reads the tokens from the reply.
    /// - Throws: ``NetworkError``; `.decoding` when the reply has no access token at ``accessTokenKey``.
    public func refresh(refreshToken: String, server: Server) async throws(NetworkError) -> Tokens {
        var fields = extraFields
        fields[refreshTokenField] = refreshToken
        let endpoint = JSONRefreshEndpoint(path: path, fields: fields, refreshToken: refreshToken)
        let reply: JSONValue = try await server.send(endpoint)
        guard let access = reply[accessTokenKey]?.string, !access.isEmpty else {
            throw NetworkError(kind: .decoding, method: .post, path: path.rendered, statusCode: 200,
                               serverMessage: "the reply has no access token at `\(accessTokenKey)`")
        }
        let rotated = refreshTokenKey.flatMap { reply[$0]?.string }
        return Tokens(accessToken: AccessToken(access), refreshToken: rotated ?? refreshToken,
                      expiresIn: expiresInKey.flatMap { reply[$0]?.number })
    }

    /// The refresher for ``RepositoryService/Configuration/refresher``.
    public var refresher: TokenRefresher {
        TokenRefresher(failureRule: failureRule) { [self] credentials, server in
            try await refresh(refreshToken: credentials.refreshToken, server: server)
        }
    }
}

extension RepositoryService.Configuration {
    /// A JSON server described by `refresh`; sign-out is local only unless you pass a `revoker`.
    public static func json(_ refresh: JSONTokenRefresh, revoker: SessionRevoker = .localOnly) -> Self {
        Self(refresher: refresh.refresher, revoker: revoker)
    }
}

/// `POST <path>` with a flat JSON object.
private struct JSONRefreshEndpoint: Endpoint {
    let path: EndpointPath
    let fields: [String: String]
    let refreshToken: String

    var method: HTTPMethod { .post }
    var body: RequestBody { .json(fields) }
    var authentication: EndpointAuthentication { .none }
    var secrets: [String] { [refreshToken] + fields.values.filter { $0.count >= 8 } }
}
