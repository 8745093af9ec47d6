import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// A store where another program refreshes just before this one enters the exclusive section:
/// it saves that program's tokens, and the server then moves on once more (the tokens expire
/// on the server while this program's request waits to be sent, as under 64 processes on two
/// cores).
final class RefreshedElsewhereStore: TokenStore {
    let inner = InMemoryTokenStore()
    /// Run once, at the next exclusive section, before its body.
    let beforeNextSection = TestMutex<(@Sendable (InMemoryTokenStore) async throws -> Void)?>(nil)

    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) { try await inner.save(credentials) }
    func clear() async throws(TokenStoreError) { try await inner.clear() }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if let elsewhere = beforeNextSection.withLock({ $0.take() }) { try await elsewhere(inner) }
        return try await inner.withExclusiveAccess(body)
    }
}

/// Issue 39's fault at 64 processes: a refresh ahead that found another program's new tokens
/// in the store asked the server nothing, so a 401 on those tokens must still get its one
/// refresh (rule 2); a refresh that did ask the server keeps the loop guard.
@Suite("Tokens a refresh found in the store still get one refresh after a 401")
struct TokensFoundInStoreTests {
    let clock = TestClock()
    let fake = ScriptedTokenServer()

    func makeService(store: any TokenStore) throws -> SessionService {
        var configuration = SessionService.Configuration.json(ScriptedTokenServer.refresh)
        let clock = clock
        configuration.now = { clock.now }
        configuration.sleep = { clock.advance(by: $0) }
        return SessionService(server: try fake.server, tokenStore: store, configuration: configuration)
    }

    func me(_ service: SessionService) async throws -> MeEndpoint.Me {
        try await service.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
    }

    @Test("another program's tokens, refused by the time they are sent: one refresh, then the call succeeds")
    func refusedTokensFromTheStore() async throws {
        let store = RefreshedElsewhereStore()
        let service = try makeService(store: store)
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        clock.advance(by: 901)
        let (fake, clock) = (fake, clock)
        store.beforeNextSection.withLock {
            $0 = { inner in
                // Another program's rotation, saved; then the server rotates again elsewhere.
                let theirs = fake.signIn()
                try await inner.save(Credentials(accessToken: theirs.accessToken, refreshToken: theirs.refreshToken,
                                                 accessTokenExpiresAt: clock.now.addingTimeInterval(900), accountID: "kim"))
                _ = fake.signIn()
            }
        }
        #expect(try await me(service).name == "kim")
        #expect(fake.presented == ["secret-refresh-2"])
        #expect(try await store.load()?.refreshToken == "secret-refresh-4")
    }

    @Test("tokens this call's refresh got from the server and the server refuses: no second refresh (no loop)")
    func refusedTokensFromTheServer() async throws {
        let store = RefreshedElsewhereStore()
        let service = try makeService(store: store)
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        clock.advance(by: 901)
        fake.refusesEveryAccessToken.withLock { $0 = true }
        let error = await #expect(throws: NetworkError.self) { try await me(service) }
        #expect(error?.statusCode == 401)
        #expect(fake.refreshCalls == 1)
    }
}
