import Foundation
public import NetworkService

/// The sign-in and refresh calls of a JSON server that does not speak OAuth 2.0:
/// each one POST of a JSON object (the fields you name for the sign-in, the refresh token in
/// a field for the refresh), tokens read from the reply by field names (a dotted name reaches
/// into nested objects).
///
/// For example djangorestframework-simplejwt (`POST /api/token/` with `{"username", "password"}`
/// and `POST /api/token/refresh/` with `{"refresh": …}`, both answering `{"access": …, "refresh": …}`
/// with no expiry, which then comes from the JWT's `exp`; its JWT names the user in `user_id`,
/// not `sub`, so the account id is passed):
///
/// ```swift
/// let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
///                            accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
/// let service = SessionService(server: server, tokenStore: store, configuration: .json(jwt))
/// let tokens = try await jwt.signIn(["username": username, "password": password], server: server)
/// try await service.startSession(tokens: tokens, accountID: username)
/// ```
public struct JSONTokenRefresh: Sendable {
    /// The refresh endpoint's path.
    public var path: EndpointPath
    /// The sign-in endpoint's path, for ``signIn(_:server:)``; `nil` when the session starts
    /// elsewhere (hand its tokens to ``SessionService/startSession(tokens:accountID:)``).
    public var signInPath: EndpointPath?
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

    /// Creates a description of the refresh (and sign-in) call; the defaults are OAuth-style
    /// snake_case names.
    public init(path: EndpointPath, signInPath: EndpointPath? = nil, refreshTokenField: String = "refresh_token",
                extraFields: [String: String] = [:], accessTokenKey: String = "access_token",
                refreshTokenKey: String? = "refresh_token", expiresInKey: String? = "expires_in",
                failureRule: RefreshFailureRule = .rejectedByServer) {
        self.path = path
        self.signInPath = signInPath
        self.refreshTokenField = refreshTokenField
        self.extraFields = extraFields
        self.accessTokenKey = accessTokenKey
        self.refreshTokenKey = refreshTokenKey
        self.expiresInKey = expiresInKey
        self.failureRule = failureRule
    }

    /// Signs in: POSTs `fields` (with ``extraFields``) as a JSON object to ``signInPath`` and
    /// reads the tokens from the reply as ``refresh(refreshToken:server:)`` does; the reply must
    /// hold a refresh token at ``refreshTokenKey``. The values of `fields` are credentials (a
    /// password, a one-time code): none of them appears in an error.
    ///
    /// ```swift
    /// let tokens = try await jwt.signIn(["username": "kim", "password": password], server: server)
    /// ```
    /// - Throws: ``/NetworkService/NetworkError``: `.invalidRequest` (nothing sent) without a ``signInPath``;
    ///   `.httpStatus` when the server refuses (a wrong password is 401 or 400, depending on the
    ///   server); `.decoding` when the reply has no access token or no refresh token.
    public func signIn(_ fields: [String: String], server: Server) async throws(NetworkError) -> Tokens {
        guard let signInPath else {
            throw NetworkError(kind: .invalidRequest, method: .post, path: path.rendered,
                               serverMessage: "the JSON preset has no sign-in path (set `signInPath`)")
        }
        let endpoint = JSONTokenEndpoint(path: signInPath, fields: extraFields.merging(fields) { $1 },
                                         secrets: Array(fields.values))
        let reply: JSONValue = try await server.send(endpoint)
        return try tokens(from: reply, path: signInPath, keeping: nil)
    }

    /// Sends the refresh call and reads the tokens from the reply.
    /// - Throws: ``/NetworkService/NetworkError``; `.decoding` when the reply has no access token at ``accessTokenKey``.
    public func refresh(refreshToken: String, server: Server) async throws(NetworkError) -> Tokens {
        var fields = extraFields
        fields[refreshTokenField] = refreshToken
        let endpoint = JSONTokenEndpoint(path: path, fields: fields, secrets: [refreshToken])
        let (reply, head) = try await server.sendReadingHead(endpoint, as: JSONValue.self)
        var tokens = try tokens(from: reply, path: path, keeping: refreshToken)
        tokens.serverDate = head.date
        return tokens
    }

    /// The tokens in `reply`; without a refresh token in it, `previous` is kept.
    private func tokens(from reply: JSONValue, path: EndpointPath, keeping previous: String?) throws(NetworkError) -> Tokens {
        guard let access = reply.value(atPath: accessTokenKey)?.string, !access.isEmpty else {
            throw NetworkError(kind: .decoding, method: .post, path: path.rendered, statusCode: 200,
                               serverMessage: "the reply has no access token at `\(accessTokenKey)`")
        }
        let rotated = refreshTokenKey.flatMap { reply.value(atPath: $0)?.string }.flatMap { $0.isEmpty ? nil : $0 }
        guard let refreshToken = rotated ?? previous else {
            throw NetworkError(kind: .decoding, method: .post, path: path.rendered, statusCode: 200,
                               serverMessage: "the reply has no refresh token at `\(refreshTokenKey ?? "(no key set)")`, "
                                   + "so the session could not be kept")
        }
        return Tokens(accessToken: AccessToken(access), refreshToken: refreshToken,
                      expiresIn: expiresInKey.flatMap { reply.value(atPath: $0)?.numberOrNumericString })
    }

    /// The refresher for ``SessionService/Configuration/refresher``.
    public var refresher: TokenRefresher {
        TokenRefresher(failureRule: failureRule) { [self] credentials, server in
            try await refresh(refreshToken: credentials.refreshToken, server: server)
        }
    }
}

extension SessionService.Configuration {
    /// A JSON server described by `refresh` (its refresh call and rule; sign in with
    /// ``JSONTokenRefresh/signIn(_:server:)``); sign-out is local only unless you pass a `revoker`.
    public static func json(_ refresh: JSONTokenRefresh, revoker: SessionRevoker = .localOnly) -> Self {
        Self(refresher: refresh.refresher, revoker: revoker)
    }
}

/// `POST <path>` with a flat JSON object.
private struct JSONTokenEndpoint: Endpoint {
    let path: EndpointPath
    let fields: [String: String]
    /// The values to keep out of errors besides long field values (a refresh token, a password).
    let tokenSecrets: [String]

    init(path: EndpointPath, fields: [String: String], secrets: [String]) {
        self.path = path
        self.fields = fields
        self.tokenSecrets = secrets
    }

    var method: HTTPMethod { .post }
    var body: RequestBody { .json(fields) }
    var authentication: EndpointAuthentication { .none }
    var secrets: [String] { tokenSecrets + fields.values.filter { $0.count >= 8 } }
}
