import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("The session engine with servers other than the app's")
struct AnyServerSessionTests {
    let clock = TestClock()
    let fake: FakeOAuthServer
    let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", revocationEndpoint: "/o/revoke_token/",
                             clientID: FakeOAuthServer.clientID, clientSecret: FakeOAuthServer.clientSecret)

    init() throws {
        fake = try FakeOAuthServer(clock: clock)
    }

    func makeService(_ configuration: SessionService.Configuration? = nil, store: any TokenStore = InMemoryTokenStore()) -> SessionService {
        var configuration = configuration ?? .oauth2(oauth)
        let clock = clock
        configuration.now = { clock.now }
        return SessionService(server: fake.server, tokenStore: store, configuration: configuration)
    }

    func signIn(_ service: SessionService) async throws {
        let tokens = try await oauth.passwordGrant(username: "kim", password: "correct horse", server: fake.server)
        try await service.startSession(tokens: tokens, accountID: "kim")
    }

    func me(_ service: SessionService) async throws -> ResourceOwner {
        try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) }
    }

    // MARK: Refreshing (RFC 6749 §6)

    @Test("the OAuth 2.0 preset refreshes with a form-encoded refresh_token grant and HTTP Basic client authentication")
    func oauthRefresh() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await signIn(service)
        let first = try #require(try await store.load())
        #expect(try await me(service) == ResourceOwner(username: "kim"))

        clock.advance(by: 6)
        #expect(try await me(service) == ResourceOwner(username: "kim"))
        #expect(fake.refreshCalls == 1)
        let refresh = try #require(fake.requests.last { FakeOAuthServer.form(of: $0)["grant_type"] == "refresh_token" })
        #expect(refresh.target == "/o/token/")
        #expect(refresh.value(forHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(refresh.value(forHeaderField: "Authorization") == FakeOAuthServer.basicAuthorization)
        #expect(FakeOAuthServer.form(of: refresh)["refresh_token"] == first.refreshToken)
        #expect(try await store.load()?.refreshToken != first.refreshToken)
    }

    @Test("invalid_grant from the token endpoint ends the session, whether answered 400 or 401", arguments: [400, 401])
    func invalidGrantEndsSession(status: Int) async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await signIn(service)
        let events = service.events()
        fake.configure { state in
            state.invalidGrantStatus = status
            for key in state.refreshTokens.keys { state.refreshTokens[key]?.used = true }  // made stale behind the SDK's back
        }
        clock.advance(by: 6)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .refreshTokenRejected(.invalidGrant))
        #expect(try await store.load() == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.refreshTokenRejected(.invalidGrant)))
        #expect(fake.refreshCalls == 1)
    }

    @Test("a token endpoint answering 500 keeps the credentials and is transient")
    func serverErrorKeepsCredentials() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await signIn(service)
        let before = try await store.load()
        fake.configure { $0.failRefreshesWith500 = true }
        clock.advance(by: 6)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(try await store.load() == before)
        fake.configure { $0.failRefreshesWith500 = false }
        #expect(try await me(service).username == "kim")
    }

    @Test("a server that does not rotate refresh tokens: the old one is kept")
    func noRotation() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        fake.configure { $0.rotates = false }
        try await signIn(service)
        let first = try #require(try await store.load())
        clock.advance(by: 6)
        _ = try await me(service)
        let second = try #require(try await store.load())
        #expect(second.refreshToken == first.refreshToken)
        #expect(second.accessToken != first.accessToken)
    }

    // MARK: Expiry (item 4)

    @Test("tokens without expires_in take their expiry from the JWT's exp and iat, counted on this device's clock")
    func expiryFromJWT() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        fake.configure { $0.jwtAccessTokens = true; $0.sendsExpiresIn = false }
        try await signIn(service)
        let stored = try #require(try await store.load())
        // exp − iat is 5 in whole seconds: a second less, since the server may have issued the
        // token up to a second after the iat it wrote (WholeSecondExpiryTests).
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(4))
        clock.advance(by: 4.6)  // within the last tenth of the 5-second lifetime: refreshed ahead, no 401
        _ = try await me(service)
        #expect(fake.refreshCalls == 1)
        #expect(fake.state.withLock { $0.unauthorized } == 0)
    }

    @Test("opaque tokens without expires_in have an unknown expiry: no refresh ahead, one refresh on the 401")
    func unknownExpiry() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        fake.configure { $0.sendsExpiresIn = false }
        try await signIn(service)
        #expect(try await store.load()?.accessTokenExpiresAt == nil)
        clock.advance(by: 4)
        _ = try await me(service)
        #expect(fake.refreshCalls == 0)
        clock.advance(by: 2)
        _ = try await me(service)
        #expect(fake.refreshCalls == 1)
        #expect(fake.state.withLock { $0.unauthorized } == 1)
    }

    @Test("tokens decode without expiresIn or expiresAt")
    func tokensWithoutExpiry() throws {
        let tokens = try JSONCoding.makeDecoder().decode(Tokens.self, from: Data(#"{"accessToken":"a","refreshToken":"r","tokenType":"Bearer"}"#.utf8))
        #expect(tokens.expiresIn == nil)
        #expect(tokens.expiresAt == nil)
        #expect(tokens.description == "Tokens(<redacted>, expiresIn: unknown)")
    }

    // MARK: Starting a session (item 5)

    @Test("a session starts from tokens and an account id, or the JWT's sub; without either it fails and stores nothing")
    func startSessionFromTokens() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        let events = service.events()
        fake.configure { $0.jwtAccessTokens = true }
        let tokens = try await oauth.passwordGrant(username: "lee", password: "correct horse", server: fake.server)
        #expect(try await service.startSession(tokens: tokens) == "lee")
        #expect(try await service.signedInAccountID() == "lee")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn(accountID: "lee"))

        let other = makeService(store: InMemoryTokenStore())
        let opaque = Tokens(accessToken: AccessToken("opaque-token"), refreshToken: "r")
        let error = await #expect(throws: SessionError.self) { try await other.startSession(tokens: opaque) }
        #expect(error?.kind == .accountUnknown)
        #expect(try await other.isSignedIn() == false)
        #expect(try await other.startSession(tokens: opaque, accountID: "ci-bot") == "ci-bot")
    }

    // MARK: Revocation (item 6)

    @Test("sign-out revokes the refresh and the access token (RFC 7009) and clears the store")
    func revocation() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await signIn(service)
        let result = try await service.signOut()
        #expect(result.serverConfirmed)
        #expect(try await store.load() == nil)
        #expect(fake.state.withLock { $0.revokedTokens } == ["refresh_token", "access_token"])
        let revoke = try #require(fake.requests.last)
        #expect(revoke.target == "/o/revoke_token/")
        #expect(revoke.value(forHeaderField: "Authorization") == FakeOAuthServer.basicAuthorization)
    }

    @Test("a revocation that fails still signs out locally, and says why the server was not told")
    func failedRevocation() async throws {
        let store = InMemoryTokenStore()
        struct Unreachable: Error {}
        var configuration = SessionService.Configuration.oauth2(oauth)
        configuration.revoker = SessionRevoker { _, _ in throw Unreachable() }
        let service = makeService(configuration, store: store)
        try await signIn(service)
        let result = try await service.signOut()
        #expect(result.wasSignedIn)
        #expect(!result.serverConfirmed)
        #expect(result.serverError is Unreachable)
        #expect(try await store.load() == nil)
    }

    // MARK: Presets and defaults (item 7)

    @Test("a refresher of your own, set without a failure rule, still ends the session when its refresh is refused")
    func customRefresherBringsItsRule() async throws {
        let store = InMemoryTokenStore()
        let oauth = self.oauth
        let configuration = SessionService.Configuration(refresher: TokenRefresher { credentials, server in
            try await oauth.refresh(refreshToken: credentials.refreshToken, server: server)
        })
        let service = makeService(configuration, store: store)
        try await signIn(service)
        fake.configure { state in for key in state.refreshTokens.keys { state.refreshTokens[key]?.used = true } }
        clock.advance(by: 6)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .sessionEnded)
        #expect(try await store.load() == nil)
    }

    @Test("a refresher of your own ends the session when its refresh is answered 400 for another reason than invalid_grant, naming the status")
    func customRefresherEndsSessionOnBadRequest() async throws {
        let store = InMemoryTokenStore()
        let configuration = SessionService.Configuration(refresher: TokenRefresher { _, _ in
            throw NetworkError(kind: .httpStatus, method: .post, path: "/api/token/refresh/", statusCode: 400,
                               serverMessage: "refresh: This field is required.")
        })
        let service = makeService(configuration, store: store)
        try await signIn(service)
        clock.advance(by: 6)
        // The same request would be refused again (RefusedRefreshTests): not transient.
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .refreshRefused(status: 400, code: nil))
        #expect(try await store.load() == nil)
    }

    @Test("a server that accepts each token once and then refuses it (expiry unknown) is stopped by the refresh limit")
    func acceptOnceLoopIsStopped() async throws {
        var configuration = SessionService.Configuration.oauth2(oauth)
        configuration.refreshLimit = RefreshLimit(maximumRefreshes: 3, interval: 30)
        let service = makeService(configuration)
        fake.configure { $0.sendsExpiresIn = false }
        try await signIn(service)
        var limited: SessionError?
        for _ in 0..<10 {
            _ = try? await me(service)   // accepted once
            fake.configure { $0.accessTokens.removeAll() }   // then refused
            clock.advance(by: 0.2)
            do { _ = try await me(service) } catch let error as SessionError { limited = error; break } catch {}
        }
        #expect(limited?.kind == .refreshLimitExceeded)
        #expect(fake.refreshCalls <= 4)
    }

    @Test("the JSON preset sends the refresh token in the named field and reads the tokens at the named (nested) keys")
    func jsonPreset() async throws {
        let transport = TestTransport { request in
            switch request.target {
            case "/api/token/refresh/":
                let presented = request.jsonBody?["refresh"] as? String
                guard presented == "r1" else { return .json(401, #"{"detail":"Token is invalid or expired","code":"token_not_valid"}"#) }
                return .json(200, #"{"data":{"access":"a2","lifetime":120}}"#)
            default:
                let authorized = request.value(forHeaderField: "Authorization") == "Bearer a2"
                return authorized ? .json(200, #"{"username":"kim"}"#) : .status(401)
            }
        }
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let refresh = JSONTokenRefresh(path: "/api/token/refresh/", refreshTokenField: "refresh", extraFields: ["client": "cli"],
                                       accessTokenKey: "data.access", refreshTokenKey: "data.refresh", expiresInKey: "data.lifetime")
        let store = InMemoryTokenStore()
        var configuration = SessionService.Configuration.json(refresh)
        let clock = clock
        configuration.now = { clock.now }
        let service = SessionService(server: server, tokenStore: store, configuration: configuration)
        try await service.startSession(tokens: Tokens(accessToken: AccessToken("a1"), refreshToken: "r1"), accountID: "kim")

        let owner: ResourceOwner = try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) }
        #expect(owner.username == "kim")
        let stored = try #require(try await store.load())
        #expect(stored.accessToken.rawValue == "a2")
        #expect(stored.refreshToken == "r1")  // none in the reply: kept
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(120))
        let sent = try #require(transport.requests.first { $0.target == "/api/token/refresh/" })
        #expect(sent.jsonBody?["refresh"] as? String == "r1")
        #expect(sent.jsonBody?["client"] as? String == "cli")
    }

    // MARK: The refresh limit (item 8)

    @Test("5-second tokens and a call every 300 ms for 60 s: every call works, refreshing about once a lifetime",
          arguments: [true, false])
    func shortLivedTokensNeverReachTheRefreshLimit(expiryKnown: Bool) async throws {
        let service = makeService()
        fake.configure { $0.sendsExpiresIn = expiryKnown }
        try await signIn(service)
        var failures = 0
        for _ in 0..<200 {
            clock.advance(by: 0.3)
            do { _ = try await me(service) } catch { failures += 1 }
        }
        #expect(failures == 0)
        // Known expiry: refreshed ahead within the last 0.5 s, about once a lifetime
        // (60 s / 4.5–4.8 s ≈ 13). Unknown: refreshed on each 401, once a lifetime (60 s / 5 s =
        // 12), none counted by the refresh limit.
        let expected = expiryKnown ? 13 : 12
        #expect(abs(fake.refreshCalls - expected) <= 2, "\(fake.refreshCalls) refreshes")
        #expect(fake.state.withLock { $0.unauthorized } == (expiryKnown ? 0 : fake.refreshCalls))
    }

    @Test("a server that refuses every fresh token is stopped by the refresh limit, and the error says so")
    func loopIsStopped() async throws {
        var configuration = SessionService.Configuration.oauth2(oauth)
        configuration.refreshLimit = RefreshLimit(maximumRefreshes: 3, interval: 30)
        let service = makeService(configuration)
        try await signIn(service)
        fake.configure { $0.refusesEveryAccessToken = true }  // every token is refused, fresh or not
        var sessionError: SessionError?
        for _ in 0..<5 {
            do { _ = try await me(service) } catch let error as SessionError { sessionError = error; break } catch {}
        }
        #expect(sessionError?.kind == .refreshLimitExceeded)
        #expect(fake.refreshCalls == 3)
        let description = sessionError?.description ?? ""
        #expect(description.contains("refused 3 access tokens before they were due to expire"), "\(description)")
    }
}
