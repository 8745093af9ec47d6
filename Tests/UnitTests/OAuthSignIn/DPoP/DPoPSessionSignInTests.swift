#if EncryptedTokenStore
import AppSDKHarness
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine
import Testing
import TokenStore

@Suite("OAuthProvider.dpop: every sign-in flow stores a DPoP key with its tokens, and the session proves it from then on")
struct DPoPSessionSignInTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    /// A session of `provider` (its `dpop` copied by `.oauth2` or `.clientCredentials`) on `store`.
    static func session(_ provider: OAuthProvider, store: any TokenStore = InMemoryTokenStore(), clientCredentials: Bool = false,
                        change: (inout SessionService.Configuration) -> Void = { _ in }) throws -> SessionService {
        var configuration: SessionService.Configuration = clientCredentials
            ? .clientCredentials(provider, scopes: ["read"]) : .oauth2(provider)
        change(&configuration)
        return SessionService(server: try Server(baseURL: "https://api.example.test"), tokenStore: store, configuration: configuration)
    }

    /// The stored session's key, which a token request of `request` proved: same thumbprint, a
    /// signature that verifies under it.
    static func expectProved(_ request: FakeTokenServer.Request?, by key: DPoPKey, withATH: Bool = false,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> ReceivedDPoPProof {
        let proof = try #require(request?.header("DPoP").flatMap(ReceivedDPoPProof.init), sourceLocation: sourceLocation)
        #expect(proof.thumbprint == key.thumbprint, sourceLocation: sourceLocation)
        #expect(proof.signatureVerifies, sourceLocation: sourceLocation)
        #expect((proof.ath != nil) == withATH, sourceLocation: sourceLocation)
        return proof
    }

    /// Waits until the stored access token has expired (1-second tokens), so the next call refreshes.
    static func waitUntilExpired(_ store: any TokenStore) async throws {
        let expiresAt = try #require(try await store.load()?.accessTokenExpiresAt)
        let seconds = expiresAt.timeIntervalSinceNow + 0.1
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }

    /// The browser plays the user: the server approves and redirects to the loopback listener.
    static func approveInBrowser(_ server: FakeAS, opened: LockedValue<URL?>) -> @Sendable (URL) async throws -> Void {
        { url in
            opened.withLock { $0 = url }
            let callback = server.approve(url)
            Task { _ = try await URLSession.shared.data(from: callback) }
        }
    }

    @Test("browser: the key is stored, dpop_jkt is its thumbprint, the code exchange is signed by it; another service on the store refreshes with it")
    func browser() async throws {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        server.configure { $0.expiresIn = 1 }    // due at once: the next call refreshes
        let store = InMemoryTokenStore()
        let session = try Self.session(provider, store: store)
        let opened = LockedValue<URL?>(nil)
        let result = try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20),
                                                             open: Self.approveInBrowser(server, opened: opened)))
        #expect(result.accountID == "user-42")
        let stored = try #require(try await store.load())
        let key = try #require(stored.dpopKey)
        #expect(key.algorithm == "EdDSA")
        #expect(stored.accessTokenType == "DPoP")
        let url = try #require(opened.withLock { $0 })
        #expect(FakeAS.query(of: url)["dpop_jkt"] == key.thumbprint)
        _ = try Self.expectProved(server.requests(to: "/token").first, by: key)

        // Another process sharing the store (a service without Configuration.dpop) refreshes
        // with the stored key, and calls userinfo with it.
        let other = try Self.session(provider, store: store) { $0.dpop = nil }
        try await Self.waitUntilExpired(store)
        _ = try await other.userInfo(from: provider)
        let refresh = try #require(server.requests(to: "/token").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        _ = try Self.expectProved(refresh, by: key)
        let call = server.requests(to: "/userinfo").last
        #expect(call?.header("Authorization")?.hasPrefix("DPoP ") == true)
        _ = try Self.expectProved(call, by: key, withATH: true)
        #expect(try await store.load()?.dpopKey == key)
    }

    @Test("device: the key is stored, the device authorization names it, every poll and the account's userinfo call prove it")
    func device() async throws {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        let session = try Self.session(provider)
        let result = try await session.signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        #expect(result.accountID == "user-42")   // from userinfo, asked with the key
        let key = try #require(try await session.tokenStore.load()?.dpopKey)
        #expect(server.requests(to: "/device").first?.form["dpop_jkt"] == key.thumbprint)
        for poll in server.requests(to: "/token") { _ = try Self.expectProved(poll, by: key) }
        let userinfo = server.requests(to: "/userinfo")
        try #require(userinfo.count == 1)
        _ = try Self.expectProved(userinfo[0], by: key, withATH: true)
    }

    @Test("client credentials through signInIfNeeded: the key is stored; the next token, once due, is asked for with the same key")
    func clientCredentials() async throws {
        let server = try FakeAS()
        var provider = try await server.confidentialProvider()
        provider.dpop = .eddsa
        server.configure { $0.expiresIn = 1 }
        let session = try Self.session(provider, clientCredentials: true)
        let result = try #require(try await session.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"])))
        #expect(result.accountID == FakeAS.confidentialClientID)
        #expect(try await session.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"])) == nil)
        let first = try #require(try await session.tokenStore.load())
        let key = try #require(first.dpopKey)
        try await Self.waitUntilExpired(session.tokenStore)
        let token = try await session.request { _, token in token }
        #expect(token.scheme == .dpop)
        let grants = server.requests(to: "/token")
        try #require(grants.count == 2)
        for grant in grants { _ = try Self.expectProved(grant, by: key) }
        #expect(try await session.tokenStore.load()?.dpopKey == key)
    }

    @Test("callback: authorizationRequest makes the key, the session stores exactly that key and proves it")
    func callback() async throws {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        let session = try Self.session(provider)
        let request = try provider.authorizationRequest(redirectURI: URL(string: "com.example.app:/callback")!, scopes: ["openid"])
        let made = try #require(request.dpopKey)
        #expect(FakeAS.query(of: request.url)["dpop_jkt"] == made.thumbprint)
        let result = try await session.signIn(with: .callback(server.approve(request.url), for: request, provider))
        #expect(result.accountID == "user-42")
        let stored = try #require(try await session.tokenStore.load())
        #expect(stored.dpopKey == made)
        #expect(stored.accessTokenType == "DPoP")
        _ = try Self.expectProved(server.requests(to: "/token").first, by: made)
        #expect(!String(describing: request).contains(made.thumbprint))
    }

    @Test("callback: a session that binds sign-ins refuses a request made without a key, before the code is sent")
    func callbackWithoutKey() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()   // no dpop: the request gets no key
        let session = try Self.session(provider) { $0.dpop = DPoPConfiguration(keys: .eddsa) }
        let request = try provider.authorizationRequest(redirectURI: URL(string: "com.example.app:/callback")!, scopes: ["openid"])
        let error = await #expect(throws: SignInError.self) {
            try await session.signIn(with: .callback(server.approve(request.url), for: request, provider))
        }
        #expect(error?.kind == .dpopKeyUnusable)
        #expect(error?.localizedDescription.contains("OAuthProvider.dpop") == true)
        #expect(server.requests(to: "/token").isEmpty)
        #expect(try await session.tokenStore.load() == nil)
    }

    @Test("a bearer answer to the proof is refused by default: nothing is stored, a typed error that shows no token")
    func bearerAnswerRefused() async throws {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        server.configure { $0.tokenTypeOverride = "Bearer" }
        let session = try Self.session(provider)
        let error = await #expect(throws: SessionError.self) {
            try await session.signIn(with: .device(provider, scopes: ["profile"]) { _ in })
        }
        #expect(error?.kind == .dpopNotHonoured)
        #expect(try await session.tokenStore.load() == nil)
        let text = String(describing: error) + (error?.localizedDescription ?? "")
        #expect(server.secrets.allSatisfy { !text.contains($0) })
    }

    @Test("a bearer answer under .accept is kept as bearer with the key, whose refresh token the next refresh proves for")
    func bearerAnswerAccepted() async throws {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        server.configure { $0.tokenTypeOverride = "Bearer"; $0.expiresIn = 1 }
        let session = try Self.session(provider) { $0.dpop?.bearerAnswer = .accept }
        _ = try await session.signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        let stored = try #require(try await session.tokenStore.load())
        let key = try #require(stored.dpopKey)
        #expect(stored.accessTokenType == nil)
        try await Self.waitUntilExpired(session.tokenStore)
        let token = try await session.request { _, token in token }
        #expect(token.scheme == .bearer)
        let refresh = try #require(server.requests(to: "/token").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        _ = try Self.expectProved(refresh, by: key)
    }

    @Test("Configuration.dpop decides even when the provider has none; without either the session is bearer, with no proof sent")
    func configurationDecides() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let bound = try Self.session(provider) { $0.dpop = DPoPConfiguration(keys: .eddsa) }
        _ = try await bound.signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        let key = try #require(try await bound.tokenStore.load()?.dpopKey)
        _ = try Self.expectProved(server.requests(to: "/token").last, by: key)

        let bearer = try Self.session(provider)
        #expect(bearer.configuration.dpop == nil)
        let before = server.requests.count
        _ = try await bearer.signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        #expect(try await bearer.tokenStore.load()?.dpopKey == nil)
        #expect(server.requests.dropFirst(before).allSatisfy { $0.header("DPoP") == nil })
    }
}
#endif
