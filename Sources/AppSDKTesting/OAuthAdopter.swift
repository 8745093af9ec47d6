public import AppRepository
public import Foundation
public import NetworkService
import TokenStore

/// What `/api/me/` of the OAuth test server answers.
public struct Me: Decodable, Sendable, Equatable {
    /// The resource owner.
    public let username: String
}

/// `GET /api/me/`, protected by the OAuth 2.0 access token.
public struct MeEndpoint: Endpoint {
    /// The endpoint.
    public init() {}
    /// GET.
    public var method: HTTPMethod { .get }
    /// `/api/me/`.
    public var path: EndpointPath { "/api/me/" }
}

/// An adopter of the SDK against an OAuth 2.0 server, written exactly as the README's
/// "Using the SDK with your own server" example: the conformance tests and their probe
/// processes run this code path, so the example is what is tested.
public struct OAuthAdopter: Sendable {
    /// The OAuth server.
    public let server: Server
    /// Its client.
    public let oauth: OAuth2Client
    /// The session.
    public let service: RepositoryService

    /// Opens the encrypted store at `storeURL` (key file `keyURL`) and makes the service,
    /// as the README does.
    public init(baseURL: String, clientID: String, clientSecret: String, storeURL: URL, keyURL: URL) async throws {
        let server = try Server(baseURL: baseURL)
        let oauth = OAuth2Client(tokenEndpoint: "/o/token/", revocationEndpoint: "/o/revoke_token/",
                                 clientID: clientID, clientSecret: clientSecret)
        #if EncryptedTokenStore
        let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
        #else
        let store = FileTokenStore(fileURL: storeURL)
        #endif
        let service = RepositoryService(server: server, tokenStore: store, configuration: .oauth2(oauth))
        (self.server, self.oauth, self.service) = (server, oauth, service)
    }

    /// Signs in with the password grant and keeps the session, as the README does.
    public func signIn(username: String, password: String) async throws {
        let tokens = try await oauth.passwordGrant(username: username, password: password, server: server)
        try await service.startSession(tokens: tokens, accountID: username)
    }

    /// Calls the protected resource through the service, as the README does.
    public func me() async throws -> Me {
        let me: Me = try await service.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
        return me
    }
}
