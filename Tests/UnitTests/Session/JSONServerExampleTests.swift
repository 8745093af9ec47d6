#if EncryptedTokenStore
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

// MARK: The example of docs/OTHER-SERVERS.md, as written

// docs/OTHER-SERVERS.md, "A JSON server that is neither": the code
// from here to the end of this mark is that example, copied exactly. Change both together.

struct Profile: Decodable, Sendable { let username: String }
struct ProfileEndpoint: Endpoint { var method: HTTPMethod { .get }; var path: EndpointPath { "/api/profile/" } }

/// Signs in to a djangorestframework-simplejwt server and fetches the profile; the session
/// stays in the encrypted store, refreshed as needed, for the next call and the next run.
func signInAndFetchProfile(baseURL: String, storeURL: URL, keyURL: URL,
                           username: String, password: String) async throws -> Profile {
    let server = try Server(baseURL: baseURL)
    let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
    // POST /api/token/ {"username", "password"} and POST /api/token/refresh/ {"refresh"} both
    // answer {"access", "refresh"}; no expires_in: the expiry comes from the JWT's exp.
    let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                               accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
    let service = SessionService(server: server, tokenStore: store, configuration: .json(jwt))

    let tokens = try await jwt.signIn(["username": username, "password": password], server: server)
    // Its JWT names the user in `user_id`, not `sub`: the account id is passed.
    try await service.startSession(tokens: tokens, accountID: username)
    return try await service.request { server, token in try await server.send(ProfileEndpoint(), accessToken: token) }
}

// MARK: The tests

/// Issue #19, items 1 and 5: the JSON example of docs/OTHER-SERVERS.md runs as written against a server of
/// that shape; the JSON preset signs in without an endpoint written by hand; a session started
/// without an account id says what was missing; Django REST framework's errors carry their code.
@Suite("A JSON server (djangorestframework-simplejwt) through the example of docs/OTHER-SERVERS.md")
struct JSONServerExampleTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test("the example of docs/OTHER-SERVERS.md signs in, keeps the session under the username and fetches the profile from a loopback server")
    func readmeExampleRunsAsWritten() async throws {
        let fake = FakeSimpleJWTServer()
        let http = try LoopbackHTTPServer { fake.reply(to: $0) }
        defer { http.stop() }
        let storeURL = folder.appendingPathComponent("session.enc"), keyURL = folder.appendingPathComponent("session.key")

        let profile = try await signInAndFetchProfile(baseURL: http.baseURL, storeURL: storeURL, keyURL: keyURL,
                                                      username: FakeSimpleJWTServer.username, password: FakeSimpleJWTServer.password)

        #expect(profile.username == FakeSimpleJWTServer.username)
        let requests = http.requests
        #expect(requests.map { "\($0.method) \($0.target)" } == ["POST /api/token/", "GET /api/profile/"])
        let signIn = try #require(requests.first)
        #expect(signIn.header("Content-Type") == "application/json")
        let fields = try JSONSerialization.jsonObject(with: signIn.body) as? [String: String]
        #expect(fields == ["username": FakeSimpleJWTServer.username, "password": FakeSimpleJWTServer.password])
        let stored = try #require(try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL)).load())
        #expect(stored.accountID == FakeSimpleJWTServer.username)
        #expect(requests.last?.header("Authorization") == "Bearer \(stored.accessToken.rawValue)")
        #expect(stored.accessTokenExpiresAt != nil)  // from the JWT's exp
    }

    // MARK: Signing in with the preset

    @Test("the preset's sign-in POSTs the named fields and the extra fields as JSON and reads the tokens at the named keys")
    func signInRequest() async throws {
        let fake = FakeSimpleJWTServer(clock: TestClock())
        let transport = fake.transport()
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                                   extraFields: ["client": "cli"], accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
        let tokens = try await jwt.signIn(["username": "kim", "password": FakeSimpleJWTServer.password], server: server)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .post)
        #expect(sent.target == "/api/token/")
        #expect(sent.value(forHeaderField: "Authorization") == nil)
        #expect(sent.jsonBody as? [String: String] == ["username": "kim", "password": FakeSimpleJWTServer.password, "client": "cli"])
        #expect(tokens.accessToken.rawValue.hasPrefix("eyJ"))
        #expect(tokens.refreshToken.hasPrefix("refresh-"))
        #expect(tokens.expiresIn == nil)
    }

    @Test("a refused sign-in is the server's error with its code, and names no field value")
    func refusedSignIn() async throws {
        let server = try Server(baseURL: "https://api.example.com", transport: FakeSimpleJWTServer(clock: TestClock()).transport())
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/")
        let error = await #expect(throws: NetworkError.self) {
            _ = try await jwt.signIn(["username": "kim", "password": "Tr0ub4dor&3"], server: server)
        }
        #expect(error?.statusCode == 401)
        #expect(error?.serverErrorCode == "no_active_account")
        #expect(error?.serverMessage == "No active account found with the given credentials")
        #expect(error?.description.contains("Tr0ub4dor&3") == false)
    }

    @Test("a sign-in reply without a refresh token, or a preset without a sign-in path, is a clear error")
    func signInErrors() async throws {
        let transport = TestTransport(always: .json(200, #"{"access":"a1"}"#))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                                   accessTokenKey: "access", refreshTokenKey: "refresh")
        let noRefresh = await #expect(throws: NetworkError.self) { _ = try await jwt.signIn(["username": "kim"], server: server) }
        #expect(noRefresh?.kind == .decoding)
        #expect(noRefresh?.serverMessage == "the reply has no refresh token at `refresh`, so the session could not be kept")

        let withoutPath = JSONTokenRefresh(path: "/api/token/refresh/")
        let noPath = await #expect(throws: NetworkError.self) { _ = try await withoutPath.signIn(["username": "kim"], server: server) }
        #expect(noPath?.kind == .invalidRequest)
        #expect(noPath?.description == "POST /api/token/refresh/ failed: the request could not be sent: the JSON preset has no sign-in path (set `signInPath`)")
        #expect(transport.requests.count == 1)
    }

    // MARK: Whose session (accountUnknown)

    @Test("a session started without an account id from a JWT without sub says so, names the claims (not their values) and what to pass")
    func jwtWithoutSubject() async throws {
        let server = try Server(baseURL: "https://api.example.com", transport: FakeSimpleJWTServer(clock: TestClock()).transport())
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                                   accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
        let tokens = try await jwt.signIn(["username": "kim", "password": FakeSimpleJWTServer.password], server: server)
        let store = InMemoryTokenStore()
        let service = SessionService(server: server, tokenStore: store, configuration: .json(jwt))

        let error = await #expect(throws: SessionError.self) { try await service.startSession(tokens: tokens) }
        #expect(error?.kind == .accountUnknown)
        #expect(error?.description == "could not start a session: no account id was given and the access token is a JWT "
            + "without a `sub` claim (its claims: exp, iat, jti, token_type, user_id): pass `accountID:` (the username the "
            + "user signed in with, say), or the claim that names the user")
        #expect(error?.localizedDescription == error?.description)
        #expect(try await store.load() == nil)
        #expect(try await service.startSession(tokens: tokens, accountID: "kim") == "kim")
    }

    @Test("an opaque token without an account id, or an empty account id, says which")
    func opaqueTokenOrEmptyID() async throws {
        let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .status(500))),
                                        tokenStore: InMemoryTokenStore())
        let opaque = Tokens(accessToken: AccessToken("opaque-access-token"), refreshToken: "r")
        let missing = await #expect(throws: SessionError.self) { try await service.startSession(tokens: opaque) }
        #expect(missing?.description == "could not start a session: no account id was given and the access token is not a JWT, "
            + "so nothing names the account: pass `accountID:` (the username the user signed in with, say)")
        let empty = await #expect(throws: SessionError.self) { try await service.startSession(tokens: opaque, accountID: "") }
        #expect(empty?.description.hasPrefix("could not start a session: the account id given is empty") == true)
        #expect(try await service.isSignedIn() == false)
    }

    // MARK: Django REST framework's errors (item 5)

    @Test("Django REST framework's {detail, code} gives the error its code and message instead of an unexpected body")
    func djangoRESTFrameworkErrors() async throws {
        let body = #"{"detail":"Given token not valid for any token type","code":"token_not_valid","messages":[]}"#
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .json(401, body)))
        let error = await #expect(throws: NetworkError.self) {
            let _: Profile = try await server.send(ProfileEndpoint(), accessToken: AccessToken("access-token-1"))
        }
        #expect(error?.serverErrorCode == .tokenNotValid)
        #expect(error?.serverMessage == "Given token not valid for any token type")
        #expect(error?.responseSnippet == nil)
        #expect(error?.description == #"GET /api/profile/ failed: HTTP 401 token_not_valid "Given token not valid for any token type""#)
    }

    @Test("Django REST framework's stock {detail} alone (a wrong password) is the error's message, with no code and no snippet")
    func djangoRESTFrameworkDetailOnly() async throws {
        let body = #"{"detail":"No active account found with the given credentials"}"#
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .json(401, body)))
        let error = await #expect(throws: NetworkError.self) {
            let _: Profile = try await server.send(ProfileEndpoint(), accessToken: AccessToken("access-token-1"))
        }
        #expect(error?.serverErrorCode == nil)
        #expect(error?.serverMessage == "No active account found with the given credentials")
        #expect(error?.responseSnippet == nil)
        #expect(error?.description == #"GET /api/profile/ failed: HTTP 401 "No active account found with the given credentials""#)
    }

    @Test("a detail without a code is not claimed; the other formats still come first", arguments: [
        (#"{"detail":"Not found."}"#, [String: String](), nil as String?),
        (#"{"detail":"d","code":"c","error":{"code":"app_code","message":"m"}}"#, [:], "app_code"),
        (#"{"detail":"d","code":"c"}"#, ["WWW-Authenticate": #"Bearer error="invalid_token""#], "invalid_token"),
        (#"{"error":"invalid_grant","detail":"d","code":"c"}"#, [:], "invalid_grant"),
    ])
    func djangoRESTFrameworkOrder(body: String, headers: [String: String], code: String?) throws {
        let response = HTTPResponse(statusCode: 401, headerFields: headers)
        #expect(ServerErrorFormat.standard.decode(response, Data(body.utf8))?.code.rawValue == code)
    }

    @Test("simplejwt's blacklisted refresh token ends the session with its code, read from the DRF body")
    func blacklistedRefreshToken() async throws {
        let clock = TestClock()
        let fake = FakeSimpleJWTServer(clock: clock)
        let server = try Server(baseURL: "https://api.example.com", transport: fake.transport())
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                                   accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
        var configuration = SessionService.Configuration.json(jwt)
        configuration.now = { clock.now }
        let store = InMemoryTokenStore()
        let service = SessionService(server: server, tokenStore: store, configuration: configuration)
        let tokens = try await jwt.signIn(["username": "kim", "password": FakeSimpleJWTServer.password], server: server)
        try await service.startSession(tokens: tokens, accountID: "kim")
        _ = try await jwt.refresh(refreshToken: tokens.refreshToken, server: server)  // another client rotates it
        clock.advance(by: 6)
        let error = await #expect(throws: SessionError.self) {
            let _: Profile = try await service.request { server, token in try await server.send(ProfileEndpoint(), accessToken: token) }
        }
        #expect(error?.reason == .refreshTokenRejected(.tokenNotValid))
        #expect(try await store.load() == nil)
    }
}
#endif
