import Foundation
public import NetworkService

/// An OAuth 2.0 client (RFC 6749) of one authorization server: its token endpoint, its
/// revocation endpoint (RFC 7009) and how the client authenticates. It signs in with the
/// password grant and gives ``SessionService`` the matching preset:
///
/// ```swift
/// let server = try Server(baseURL: "https://auth.example.com")
/// let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", revocationEndpoint: "/o/revoke_token/",
///                               clientID: "cli", clientSecret: secret)
/// let service = SessionService(server: server, tokenStore: store, configuration: .oauth2(oauth))
/// let tokens = try await oauth.passwordGrant(username: "kim", password: password, server: server)
/// try await service.startSession(tokens: tokens, accountID: "kim")
/// ```
///
/// Any other grant (an authorization code exchanged elsewhere, a device flow) ends the same
/// way: hand its ``Tokens`` to ``SessionService/startSession(tokens:accountID:)``.
public struct OAuth2TokenClient: Sendable {
    /// How the client authenticates at the token and revocation endpoints (RFC 6749 §2.3.1).
    public enum ClientAuthentication: Sendable, Hashable {
        /// `Authorization: Basic` with the form-encoded client id and secret (`client_secret_basic`,
        /// which every server must support).
        case basic
        /// `client_id` and `client_secret` in the form body (`client_secret_post`).
        case requestBody
        /// A public client: only `client_id` in the form body.
        case none
    }

    /// The token endpoint, for example `/o/token/` (a trailing slash is kept).
    public var tokenEndpoint: EndpointPath
    /// The RFC 7009 revocation endpoint; `nil` when the server has none (sign-out is then local).
    public var revocationEndpoint: EndpointPath?
    /// The client id.
    public var clientID: String
    /// The client secret of a confidential client; `nil` for a public client.
    public var clientSecret: String?
    /// How the client authenticates.
    public var clientAuthentication: ClientAuthentication
    /// The scope to ask for when refreshing; `nil` keeps what was granted.
    public var scope: String?

    /// Creates a client.
    /// - Parameters:
    ///   - tokenEndpoint: The token endpoint's path on the server.
    ///   - revocationEndpoint: The revocation endpoint's path, if the server has one.
    ///   - clientID: The client id.
    ///   - clientSecret: The secret of a confidential client.
    ///   - clientAuthentication: Default `.basic` with a secret, `.none` without.
    ///   - scope: The scope to ask for when refreshing.
    public init(tokenEndpoint: EndpointPath, revocationEndpoint: EndpointPath? = nil, clientID: String,
                clientSecret: String? = nil, clientAuthentication: ClientAuthentication? = nil, scope: String? = nil) {
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuthentication = clientAuthentication ?? (clientSecret == nil ? .none : .basic)
        self.scope = scope
    }

    // MARK: Grants

    /// The resource owner password credentials grant (RFC 6749 §4.3).
    /// - Throws: ``/NetworkService/NetworkError``; a wrong password is 400 `invalid_grant`.
    public func passwordGrant(username: String, password: String, scope: String? = nil,
                              server: Server) async throws(NetworkError) -> Tokens {
        var fields = [(name: "grant_type", value: "password"), ("username", username), ("password", password)]
        if let scope = scope ?? self.scope { fields.append(("scope", scope)) }
        let reply = try await requestTokens(fields, secrets: [password], server: server)
        return try reply.tokens(keeping: nil, endpoint: tokenEndpoint, proved: server.provesEveryRequest)
    }

    /// Trades a refresh token for new tokens (RFC 6749 §6). When the server does not rotate
    /// the refresh token (no `refresh_token` in the reply), the old one is kept.
    /// - Throws: ``/NetworkService/NetworkError``; a rejected refresh token is 400 (or 401) `invalid_grant`.
    public func refresh(refreshToken: String, server: Server) async throws(NetworkError) -> Tokens {
        var fields = [(name: "grant_type", value: "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { fields.append(("scope", scope)) }
        var server = server
        server.errorFormat = .oauth2
        let endpoint = OAuth2Endpoint(path: tokenEndpoint, client: self, fields: fields, secrets: [refreshToken])
        let (reply, head) = try await server.sendReadingHead(endpoint, as: OAuth2TokenReply.self)
        var tokens = try reply.tokens(keeping: refreshToken, endpoint: tokenEndpoint, proved: server.provesEveryRequest)
        tokens.serverDate = head.date
        return tokens
    }

    /// Revokes `token` (RFC 7009). A token the server does not know counts as revoked (200).
    /// - Parameters:
    ///   - token: The access or refresh token.
    ///   - hint: `"refresh_token"` or `"access_token"`.
    ///   - server: The authorization server.
    /// - Throws: ``/NetworkService/NetworkError``; ``/NetworkService/NetworkError/Kind/invalidRequest`` when there is no revocation endpoint.
    public func revoke(token: String, hint: String, server: Server) async throws(NetworkError) {
        guard let revocationEndpoint else {
            throw NetworkError(kind: .invalidRequest, method: .post, path: tokenEndpoint.rendered,
                               serverMessage: "the OAuth 2.0 client has no revocation endpoint")
        }
        let endpoint = OAuth2Endpoint(path: revocationEndpoint, client: self,
                                      fields: [("token", token), ("token_type_hint", hint)], secrets: [token])
        var server = server
        server.errorFormat = .oauth2
        try await server.send(endpoint)
    }

    // MARK: The preset's parts

    /// Refreshes with ``refresh(refreshToken:server:)``; the session ends on `invalid_grant`
    /// (``RefreshFailureRule/oauth2``).
    public var refresher: TokenRefresher {
        TokenRefresher(failureRule: .oauth2) { [self] credentials, server in
            try await refresh(refreshToken: credentials.refreshToken, server: server)
        }
    }

    /// Revokes the refresh token, then the access token (RFC 7009), when the server has a
    /// revocation endpoint; otherwise sign-out is local only. Both are tried whatever the first
    /// answered; a server that does not revoke access tokens (`unsupported_token_type`) is fine.
    public var revoker: SessionRevoker {
        guard revocationEndpoint != nil else { return .localOnly }
        return SessionRevoker { [self] credentials, server in
            var failure: NetworkError?
            for (token, hint) in [(credentials.refreshToken, "refresh_token"), (credentials.accessToken.rawValue, "access_token")] {
                do throws(NetworkError) {
                    try await revoke(token: token, hint: hint, server: server)
                } catch where error.serverErrorCode == .unsupportedTokenType {
                    continue
                } catch {
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
        }
    }

    /// POSTs `fields` to the token endpoint and decodes the reply; errors are read as RFC 6749 §5.2.
    private func requestTokens(_ fields: [(name: String, value: String)], secrets: [String],
                               server: Server) async throws(NetworkError) -> OAuth2TokenReply {
        var server = server
        server.errorFormat = .oauth2
        return try await server.send(OAuth2Endpoint(path: tokenEndpoint, client: self, fields: fields, secrets: secrets))
    }
}

extension OAuth2TokenClient: CustomStringConvertible, CustomReflectable {
    /// `OAuth2TokenClient(cli, token: /o/token/)`; never the secret.
    public var description: String { "OAuth2TokenClient(\(clientID), token: \(tokenEndpoint))" }
    /// A mirror without the client secret, so `dump(_:)` and debuggers do not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "tokenEndpoint": tokenEndpoint,
                                "revocationEndpoint": revocationEndpoint as Any, "clientSecret": clientSecret == nil ? "nil" : "<redacted>"])
    }
}

extension SessionService.Configuration {
    /// An OAuth 2.0 server (RFC 6749): refresh with `grant_type=refresh_token` at the client's
    /// token endpoint, end the session on `invalid_grant` (400 or 401), revoke at sign-out
    /// (RFC 7009) when the client has a revocation endpoint.
    public static func oauth2(_ client: OAuth2TokenClient) -> Self {
        Self(refresher: client.refresher, revoker: client.revoker)
    }

    /// ``oauth2(_:)`` for a client with no revocation endpoint, authenticating with
    /// `client_secret_basic` when it has a secret.
    public static func oauth2(tokenEndpoint: EndpointPath, clientID: String, clientSecret: String? = nil) -> Self {
        oauth2(OAuth2TokenClient(tokenEndpoint: tokenEndpoint, clientID: clientID, clientSecret: clientSecret))
    }
}
