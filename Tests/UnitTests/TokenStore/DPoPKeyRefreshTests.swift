import AppSDKTesting
import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 36, "the key lives with the session": a refresh replaces the tokens and keeps the key,
/// so every process that loads the session afterwards signs with the same one.
@Suite("A refresh carries the session's DPoP key unchanged")
struct DPoPKeyRefreshTests {
    @Test("the renewed credentials in the store have the stored key; a bearer session stays bearer")
    func refreshKeepsKey() async throws {
        // A key this build can sign with (the engine proves the refresh with the stored key).
        #if EncryptedTokenStore
        let keys: [DPoPKey?] = [DPoPTestKeys.eddsa(), nil]
        #else
        let keys: [DPoPKey?] = [nil]
        #endif
        for key in keys {
            let clock = TestClock()
            let transport = TestTransport { _ in .json(200, #"{"access":"a2","refresh":"r2","expiresIn":600}"#) }
            var configuration = SessionService.Configuration.json(
                JSONTokenRefresh(path: "/token/refresh", refreshTokenField: "refresh", accessTokenKey: "access",
                                 refreshTokenKey: "refresh", expiresInKey: "expiresIn"))
            configuration.now = { clock.now }
            var stored = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1",
                                     accessTokenExpiresAt: clock.now.addingTimeInterval(-1), accountID: "kim")
            stored.dpopKey = key
            let store = InMemoryTokenStore(credentials: stored)
            let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: transport),
                                         tokenStore: store, configuration: configuration)
            _ = try? await service.request { _, _ in () }
            let renewed = try #require(try await store.load())
            #expect(renewed.refreshToken == "r2", "a refresh happened")
            #expect(renewed.dpopKey == key)
            #expect(renewed.accessTokenType == nil, "the server said Bearer")
        }
    }

    @Test("credentials from a DPoP token answer keep the key and the DPoP type; without a key the type is not kept")
    func tokenType() async throws {
        let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: TestTransport { _ in .json(500, "{}") }),
                                     tokenStore: InMemoryTokenStore(), configuration: .json(
                                        JSONTokenRefresh(path: "/r", refreshTokenField: "r", accessTokenKey: "a",
                                                         refreshTokenKey: "r", expiresInKey: nil)))
        let tokens = Tokens(accessToken: AccessToken("a"), refreshToken: "r", tokenType: "DPoP")
        let key = DPoPTestKeys.external()
        #expect(service.credentials(from: tokens, accountID: "kim", dpopKey: key).accessTokenType == "DPoP")
        #expect(service.credentials(from: tokens, accountID: "kim", dpopKey: key).dpopKey == key)
        #expect(service.credentials(from: tokens, accountID: "kim").accessTokenType == nil)
    }
}
