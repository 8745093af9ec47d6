public import SessionEngine
public import Foundation
public import NetworkService
import TokenStore

/// What `/api/me/` of the OAuth test server answers.
public struct Me: Decodable, Sendable, Equatable {
    /// The resource owner.
    public let username: String
}

/// `GET /api/me/`, protected by the OAuth 2.0 access token (or another view of the OAuth test
/// server: `/api/me-forbidden/` answers a bare 403 for an expired token, `/api/admin/` a bare
/// 403 for every token).
public struct MeEndpoint: Endpoint {
    /// `/api/me/`, or another path of the server.
    public init(path: EndpointPath = "/api/me/") { self.path = path }
    /// GET.
    public var method: HTTPMethod { .get }
    /// `/api/me/` unless told otherwise.
    public let path: EndpointPath
}

/// An adopter of the SDK against an OAuth 2.0 server, written exactly as docs/OTHER-SERVERS.md's
/// "Using the SDK with your own server" example: the conformance tests and their probe
/// processes run this code path, so the example is what is tested.
public struct OAuthAdopter: Sendable {
    /// The OAuth server.
    public let server: Server
    /// Its client.
    public let oauth: OAuth2TokenClient
    /// The session.
    public let service: SessionService

    /// Opens the encrypted store at `storeURL` (key file `keyURL`) and makes the service,
    /// as docs/OTHER-SERVERS.md does; `authenticationFailurePolicy`, when given, replaces the preset's (the
    /// opt-in of docs/OTHER-SERVERS.md for a server that answers 403 for an expired token).
    public init(baseURL: String, clientID: String, clientSecret: String, storeURL: URL, keyURL: URL,
                authenticationFailurePolicy: AuthenticationFailurePolicy? = nil) async throws {
        let server = try Server(baseURL: baseURL)
        let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", revocationEndpoint: "/o/revoke_token/",
                                 clientID: clientID, clientSecret: clientSecret)
        #if EncryptedTokenStore
        let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
        #else
        let store = FileTokenStore(fileURL: storeURL)
        #endif
        var configuration = SessionService.Configuration.oauth2(oauth)
        if let authenticationFailurePolicy { configuration.authenticationFailurePolicy = authenticationFailurePolicy }
        let service = SessionService(server: server, tokenStore: store, configuration: configuration)
        (self.server, self.oauth, self.service) = (server, oauth, service)
    }

    /// Signs in with the password grant and keeps the session, as docs/OTHER-SERVERS.md does.
    public func signIn(username: String, password: String) async throws {
        let tokens = try await oauth.passwordGrant(username: username, password: password, server: server)
        try await service.startSession(tokens: tokens, accountID: username)
    }

    /// Calls the protected resource (`/api/me/` unless told otherwise) through the service, as
    /// docs/OTHER-SERVERS.md does.
    public func me(at path: EndpointPath = "/api/me/") async throws -> Me {
        let me: Me = try await service.request { server, token in try await server.send(MeEndpoint(path: path), accessToken: token) }
        return me
    }
}
