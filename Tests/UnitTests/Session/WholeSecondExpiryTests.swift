import AppRepository
import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue #19, item 3: a server that writes `exp` and `iat` in whole seconds (PyJWT, most JWT
/// libraries) truncates the moment of issue, so its token dies up to a second sooner than
/// `exp − iat` after it was issued. Counted from the request without that second, half the
/// refreshes came only after a 401.
@Suite("A JWT's whole-second exp and iat: the expiry here is never later than the server's")
struct WholeSecondExpiryTests {
    /// A session on a simplejwt-like server (5-second tokens, `exp`/`iat` truncated, each
    /// request 20 ms on the way), the clock starting `offset` seconds into a second.
    private func session(offset: TimeInterval) async throws -> (RepositoryService, FakeSimpleJWTServer, TestClock, InMemoryTokenStore) {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_860_000 + offset))
        let fake = FakeSimpleJWTServer(clock: clock)
        fake.configure { $0.latency = 0.02 }
        let server = try Server(baseURL: "https://api.example.com", transport: fake.transport())
        let jwt = JSONTokenRefresh(path: "/api/token/refresh/", signInPath: "/api/token/", refreshTokenField: "refresh",
                                   accessTokenKey: "access", refreshTokenKey: "refresh", expiresInKey: nil)
        var configuration = RepositoryService.Configuration.json(jwt)
        configuration.now = { clock.now }
        let store = InMemoryTokenStore()
        let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
        let tokens = try await jwt.signIn(["username": "kim", "password": FakeSimpleJWTServer.password], server: server)
        try await service.startSession(tokens: tokens, accountID: "kim")
        return (service, fake, clock, store)
    }

    @Test("a call every 300 ms for 60 s: every refresh comes before the token's expiry, none after a 401",
          arguments: [0.0, 0.3, 0.6, 0.9])
    func noUnauthorizedBeforeRefreshes(offset: TimeInterval) async throws {
        let (service, fake, clock, _) = try await session(offset: offset)
        var failures = 0
        for _ in 0..<200 {
            clock.advance(by: 0.3)
            do {
                let _: ResourceOwner = try await service.request { server, token in
                    try await server.send(SimpleJWTRoute.profile, accessToken: token)
                }
            } catch {
                failures += 1
            }
        }
        #expect(fake.unauthorized == 0, "\(fake.unauthorized) of \(fake.refreshRequests) refreshes came after a 401")
        #expect(failures == 0)
        // 60 s of 5-second tokens used for about 3.75 s each (a second less, then the margin).
        #expect((12...18).contains(fake.refreshRequests), "\(fake.refreshRequests) refreshes")
    }

    /// A service whose clock starts 0.6 s into a second, on a server that answers nothing.
    static func serviceWithoutServer() throws -> (RepositoryService, InMemoryTokenStore, TestClock) {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_860_000.6))
        let store = InMemoryTokenStore()
        var configuration = RepositoryService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { clock.now }
        let service = RepositoryService(server: try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .status(500))),
                                        tokenStore: store, configuration: configuration)
        return (service, store, clock)
    }

    @Test("whole-second exp and iat: the stored lifetime is a second less; fractional ones are taken as they are")
    func storedLifetime() async throws {
        let (service, store, clock) = try Self.serviceWithoutServer()
        func jwt(_ claims: String) -> Tokens {
            Tokens(accessToken: AccessToken(FakeTokenServer.jwt(header: "eyJhbGciOiJIUzI1NiJ9", claims: claims, signature: "c2ln")), refreshToken: "r")
        }
        try await service.startSession(tokens: jwt(#"{"sub":"kim","iat":1795860000,"exp":1795860300}"#))
        #expect(try await store.load()?.accessTokenExpiresAt == clock.now.addingTimeInterval(299))
        try await service.startSession(tokens: jwt(#"{"sub":"kim","iat":1795860000.5,"exp":1795860300.5}"#))
        #expect(try await store.load()?.accessTokenExpiresAt == clock.now.addingTimeInterval(300))
    }

    @Test("with expires_in too (glewlwyd: exp from a whole-second iat plus the lifetime), the earlier of the two is kept")
    func expiresInAndWholeSecondJWT() async throws {
        let (service, store, clock) = try Self.serviceWithoutServer()
        let access = FakeTokenServer.jwt(header: "eyJhbGciOiJIUzI1NiJ9", claims: #"{"sub":"kim","iat":1795860000,"exp":1795860005}"#,
                                         signature: "c2ln")
        try await service.startSession(tokens: Tokens(accessToken: AccessToken(access), refreshToken: "r", expiresIn: 5))
        let expiry = try #require(try await store.load()?.accessTokenExpiresAt)
        #expect(expiry <= Date(timeIntervalSince1970: 1_795_860_005), "\(expiry.timeIntervalSince1970) is past the server's exp")
        #expect(expiry == clock.now.addingTimeInterval(4))
        // A lifetime shorter than the JWT's is kept as it is.
        try await service.startSession(tokens: Tokens(accessToken: AccessToken(access), refreshToken: "r", expiresIn: 2))
        #expect(try await store.load()?.accessTokenExpiresAt == clock.now.addingTimeInterval(2))
    }
}
