import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine
import Testing
import TokenStore

@Suite("Client credentials (RFC 6749 §4.4): no refresh token, a new token from the same grant when due")
struct ClientCredentialsTests {
    func makeSession(_ fake: FakeOIDCServer, store: any TokenStore = InMemoryTokenStore()) async throws -> (SessionService, OAuthProvider) {
        let provider = try await fake.provider(clientID: FakeOIDCServer.confidentialClientID, clientSecret: FakeOIDCServer.clientSecret)
        var configuration = SessionService.Configuration.clientCredentials(provider, scopes: ["read"])
        let clock = fake.clock
        configuration.now = { clock.now }
        return (SessionService(server: fake.api, tokenStore: store, configuration: configuration), provider)
    }

    func me(_ session: SessionService) async throws -> FakeMe {
        try await session.request { server, token in try await server.send(FakeMeEndpoint(), accessToken: token) }
    }

    @Test("signing in sends grant_type=client_credentials with the scopes and HTTP Basic, stores an empty refresh token, under the client id")
    func signIn() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await makeSession(fake, store: store)
        let result = try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        #expect(result.accountID == FakeOIDCServer.confidentialClientID && result.idToken == nil)
        let request = try #require(fake.requests.last)
        #expect(FakeOIDCServer.form(of: request) == ["grant_type": "client_credentials", "scope": "read"])
        #expect(request.value(forHeaderField: "Authorization") == FakeOIDCServer.confidentialAuthorization)
        let stored = try #require(try await store.load())
        #expect(stored.refreshToken == "" && !stored.accessToken.rawValue.isEmpty)
        #expect(try await me(session) == FakeMe(username: FakeOIDCServer.confidentialClientID))
    }

    @Test("when the token is due, the engine obtains a new one with the client's credentials, once for a storm of calls")
    func renewedWhenDue() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.lifetime = 60 }
        let store = InMemoryTokenStore()
        let (session, provider) = try await makeSession(fake, store: store)
        try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        let first = try #require(try await store.load())
        fake.clock.advance(by: 61)
        try await withThrowingTaskGroup(of: FakeMe.self) { group in
            for _ in 0..<50 { group.addTask { try await me(session) } }
            for try await me in group { #expect(me.username == FakeOIDCServer.confidentialClientID) }
        }
        #expect(fake.state.withLock { $0.clientCredentialsGrants } == 2)
        let renewed = try #require(try await store.load())
        #expect(renewed.accessToken != first.accessToken && renewed.refreshToken == "")
        #expect(fake.state.withLock { $0.apiUnauthorized } == 0)
    }

    @Test("a token the API refuses before it is due is replaced through the same grant")
    func renewedOn401() async throws {
        let fake = try FakeOIDCServer()
        let (session, provider) = try await makeSession(fake)
        try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        fake.configure { $0.accessTokens.removeAll() }
        #expect(try await me(session) == FakeMe(username: FakeOIDCServer.confidentialClientID))
        #expect(fake.state.withLock { $0.clientCredentialsGrants } == 2)
        #expect(fake.state.withLock { $0.apiUnauthorized } == 1)
    }

    @Test("a client the server no longer accepts (invalid_client) ends the session instead of asking again on every call")
    func invalidClientEndsSession() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.lifetime = 60 }
        let store = InMemoryTokenStore()
        let (session, provider) = try await makeSession(fake, store: store)
        try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        fake.clock.advance(by: 61)
        let wrong = try await fake.provider(clientID: FakeOIDCServer.confidentialClientID, clientSecret: "rotated-away")
        var configuration = SessionService.Configuration.clientCredentials(wrong, scopes: ["read"])
        let clock = fake.clock
        configuration.now = { clock.now }
        let stale = SessionService(server: fake.api, tokenStore: store, configuration: configuration)
        let error = try await #require(throws: SessionError.self) { try await me(stale) }
        #expect(error.kind == .sessionEnded)
        #expect(try await store.load() == nil)
        _ = session
    }

    @Test("programs that share a store and sign in at the same moment with signInIfNeeded make one token request between them")
    func signInIfNeededOnceBetweenPrograms() async throws {
        let fake = try FakeOIDCServer()
        let store = SlowLoadingStore()
        let (first, provider) = try await makeSession(fake, store: store)
        let (second, _) = try await makeSession(fake, store: store)
        async let one = first.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"]))
        async let two = second.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"]))
        let results = try await [one, two]
        #expect(fake.state.withLock { $0.clientCredentialsGrants } == 1)
        #expect(results.compactMap(\.self).map(\.accountID) == [FakeOIDCServer.confidentialClientID])
        #expect(try await me(first) == FakeMe(username: FakeOIDCServer.confidentialClientID))
        #expect(try await me(second) == FakeMe(username: FakeOIDCServer.confidentialClientID))
    }

    @Test("signInIfNeeded keeps a stored session and sends nothing")
    func signInIfNeededKeepsStoredSession() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await makeSession(fake, store: store)
        try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        let stored = try await store.load()
        let requests = fake.requests.count
        #expect(try await session.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"])) == nil)
        #expect(fake.requests.count == requests && fake.state.withLock { $0.clientCredentialsGrants } == 1)
        #expect(try await store.load() == stored)
    }

    @Test("a public client cannot use client credentials: flowUnavailable, nothing sent")
    func needsSecret() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        await #expect(throws: SignInError.flowUnavailable) {
            try await session.signIn(with: .clientCredentials(provider, scopes: []))
        }
        #expect(fake.requests.count == 1)  // discovery only
    }

    @Test("sign-out revokes the access token only: there is no refresh token to revoke")
    func signOutRevokesAccessToken() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await makeSession(fake, store: store)
        try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]))
        let access = try #require(try await store.load()?.accessToken.rawValue)
        let result = try await session.signOut()
        #expect(result.serverError == nil)
        #expect(fake.state.withLock { $0.revoked } == [access])
    }

    @Test("the file and encrypted stores keep an empty refresh token as it is, in the same format, and never print it")
    func storesKeepEmptyRefreshToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = Credentials(accessToken: AccessToken("access-only-token-1234"), refreshToken: "",
                                      accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_000), accountID: "ci-job")
        var stores: [any TokenStore] = [FileTokenStore(fileURL: directory.appendingPathComponent("plain.json"))]
        #if EncryptedTokenStore
        stores.append(try await EncryptedFileTokenStore(fileURL: directory.appendingPathComponent("sealed"),
                                                        key: .keyFile(directory.appendingPathComponent("key"))))
        #endif
        for store in stores {
            try await store.save(credentials)
            #expect(try await store.load() == credentials)
        }
        let file = try String(contentsOf: directory.appendingPathComponent("plain.json"), encoding: .utf8)
        #expect(file.contains(#""refreshToken":"""#))
        #expect(!String(describing: credentials).contains("access-only-token-1234"))
    }

    @Test("two sessions without refresh tokens are told apart by their access tokens: unsaved credentials never overwrite a store that moved on")
    func identifiedByAccessToken() {
        let replaced = Credentials(accessToken: AccessToken("a1"), refreshToken: "", accessTokenExpiresAt: nil, accountID: "ci-job")
        let renewed = Credentials(accessToken: AccessToken("a2"), refreshToken: "", accessTokenExpiresAt: nil, accountID: "ci-job")
        let movedOn = Credentials(accessToken: AccessToken("a3-from-another-process"), refreshToken: "", accessTokenExpiresAt: nil, accountID: "ci-job")
        var state = SessionState()
        state.keepUnsaved(UnsavedCredentials(replaced: replaced, renewed: renewed, generation: state.generation))
        #expect(state.unsavedRenewal(over: movedOn, in: state.generation) == nil)
        state.keepUnsaved(UnsavedCredentials(replaced: replaced, renewed: renewed, generation: state.generation))
        #expect(state.unsavedRenewal(over: replaced, in: state.generation) == renewed)
        let ended = EndedCredentials(replaced, reason: .userSignedOut)
        #expect(ended.matches(replaced) && !ended.matches(movedOn))
    }
}

/// An in-memory store whose first read returns only when a second one has read too (or
/// half a second has passed): two programs that look at the same moment both see what was
/// stored before either of them saved, unless something makes them take turns.
private final class SlowLoadingStore: TokenStore {
    let inner = InMemoryTokenStore()
    let reads = TestMutex(0)
    func load() async throws(TokenStoreError) -> Credentials? {
        let stored = try await inner.load()
        reads.withLock { $0 += 1 }
        let deadline = ContinuousClock.now + .milliseconds(500)
        while reads.withLock({ $0 }) < 2, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return stored
    }
    func save(_ credentials: Credentials) async throws(TokenStoreError) { try await inner.save(credentials) }
    func clear() async throws(TokenStoreError) { try await inner.clear() }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}
