package import AppAPIClient
package import Foundation
import NetworkService
import OpenAPIRuntime
import OpenAPIURLSession
import OpenAPISessionMiddleware
package import SessionEngine
package import TokenStore

// MARK: docs/OPENAPI.md's example, verbatim (a test checks that every block of the page is here)

/// The reference server's client, generated from its OpenAPI document, with every operation
/// sent through a session kept in `store`; the engine's JSON preset describes the refresh call
/// (`POST /v1/auth/refresh` with `{"refreshToken"}`, answered `{"tokens": {…}}`).
func makeClient(serverURL: URL, store: any TokenStore) throws -> (Client, SessionService) {
    let refresh = JSONTokenRefresh(path: "/v1/auth/refresh", refreshTokenField: "refreshToken",
                                   accessTokenKey: "tokens.accessToken", refreshTokenKey: "tokens.refreshToken",
                                   expiresInKey: "tokens.expiresIn")
    let session = SessionService(server: try Server(baseURL: serverURL), tokenStore: store, configuration: .json(refresh))
    // The operations whose `security` is `[]` in the document are sent without a token.
    let middleware = SessionMiddleware(session: session, unauthenticatedOperations: ["signUp", "signIn", "signInAnonymously", "refresh"])
    let client = Client(serverURL: serverURL, transport: OpenAPIURLSession.URLSessionTransport(), middlewares: [middleware])
    return (client, session)
}

/// Signs in with the generated `signIn` operation and starts the session with its tokens.
func signIn(_ client: Client, _ session: SessionService, email: String, password: String) async throws {
    let reply = try await client.signIn(body: .json(.init(email: email, password: password))).ok.body.json
    let tokens = Tokens(accessToken: AccessToken(reply.tokens.accessToken), refreshToken: reply.tokens.refreshToken,
                        expiresIn: TimeInterval(reply.tokens.expiresIn))
    try await session.startSession(tokens: tokens, accountID: reply.member.id)
}

// MARK: Around the example: what the tests and the probe call

/// An adopter of a generated client, written exactly as docs/OPENAPI.md's example: the tests
/// and the probe process run this code path, so the example is what is tested.
package struct OpenAPIAdopter: Sendable {
    /// The generated client, its operations sent through ``session``.
    package let client: Client
    /// The session.
    package let session: SessionService

    /// The client and session of docs/OPENAPI.md over `store`.
    package init(serverURL: URL, store: any TokenStore) throws {
        (client, session) = try makeClient(serverURL: serverURL, store: store)
    }

    /// The same over the encrypted store at `storeURL` (key file `keyURL`), which other
    /// processes may share.
    package init(serverURL: URL, storeURL: URL, keyURL: URL) async throws {
        try self.init(serverURL: serverURL, store: try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL)))
    }

    /// Signs in with the generated `signIn` operation and starts the session, as
    /// docs/OPENAPI.md does.
    package func startSession(email: String, password: String) async throws {
        try await signIn(client, session, email: email, password: password)
    }

    /// `getMe`: the signed-in member (throws when the answer is not 200).
    package func me() async throws -> Components.Schemas.Member {
        try await client.getMe().ok.body.json
    }
}
