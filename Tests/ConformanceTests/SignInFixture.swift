import AppSDKHarness
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// What the sign-in conformance tests share: the issuer, the API (the same server's
/// `/api/...`), a private folder for stores, and the calls the tests make through a session.
struct SignInFixture {
    let folder: URL
    let issuer: URL
    let api: Server

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sign-in-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        issuer = try OAuthTestServer.issuerURL()
        api = try OAuthTestServer.server()
    }

    /// The encrypted store `name` in the folder (its key file beside it), as the docs' examples use.
    func store(_ name: String = "session") async throws -> any TokenStore {
        let (file, key) = storeFiles(name)
        #if EncryptedTokenStore
        return try await EncryptedFileTokenStore(fileURL: file, key: .keyFile(key))
        #else
        _ = key
        return FileTokenStore(fileURL: file)
        #endif
    }

    /// The store file and key file of `name`.
    func storeFiles(_ name: String) -> (store: URL, key: URL) {
        (folder.appendingPathComponent("\(name).enc"), folder.appendingPathComponent("\(name).key"))
    }

    /// `/api/me/` through the session.
    static func me(_ session: SessionService) async throws -> Me {
        try await session.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
    }

    /// `/api/client/` through the session.
    static func owner(_ session: SessionService) async throws -> TokenOwner {
        try await session.request { server, token in try await server.send(ClientEndpoint(), accessToken: token) }
    }

    /// The DOT user's id, from a password grant of the confidential client (the `sub` its ID tokens carry).
    static func userID() async throws -> String {
        struct MeWithID: Decodable { let id: Int }
        let server = try OAuthTestServer.server()
        let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: OAuthTestServer.clientID, clientSecret: OAuthTestServer.clientSecret)
        let tokens = try await oauth.passwordGrant(username: OAuthTestServer.username, password: OAuthTestServer.password, server: server)
        let me: MeWithID = try await server.send(MeEndpoint(), accessToken: tokens.accessToken)
        return String(me.id)
    }
}
