import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

@Suite("A session with a discovered provider: refresh and revocation at endpoints on another origin than the API")
struct ProviderSessionTests {
    let redirect = URL(string: "com.example.app:/callback")!

    func signedIn(_ fake: FakeOIDCServer, store: InMemoryTokenStore) async throws -> (SessionService, OAuthProvider) {
        let provider = try await fake.provider()
        var configuration = SessionService.Configuration.oauth2(provider)
        let clock = fake.clock
        configuration.now = { clock.now }
        let session = SessionService(server: fake.api, tokenStore: store, configuration: configuration)
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        try await session.signIn(with: .callback(fake.approve(request.url), for: request, provider))
        return (session, provider)
    }

    func me(_ session: SessionService) async throws -> FakeMe {
        try await session.request { server, token in try await server.send(FakeMeEndpoint(), accessToken: token) }
    }

    @Test("a due token is refreshed at the provider's token endpoint URL, not at the API's origin, and the rotated token stored")
    func refreshAtTokenEndpoint() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, _) = try await signedIn(fake, store: store)
        let first = try #require(try await store.load())
        fake.clock.advance(by: 301)
        #expect(try await me(session) == FakeMe(username: "user-42"))
        let refresh = try #require(fake.requests.last { FakeOIDCServer.form(of: $0)["grant_type"] == "refresh_token" })
        #expect(refresh.url.absoluteString == fake.issuer.absoluteString + "/token/")
        #expect(FakeOIDCServer.form(of: refresh)["refresh_token"] == first.refreshToken)
        #expect(FakeOIDCServer.form(of: refresh)["client_id"] == FakeOIDCServer.clientID)
        let renewed = try #require(try await store.load())
        #expect(renewed.refreshToken != first.refreshToken && renewed.accountID == "user-42")
    }

    @Test("invalid_grant at the provider's token endpoint ends the session")
    func invalidGrantEnds() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, _) = try await signedIn(fake, store: store)
        fake.configure { $0.refreshTokens.removeAll() }
        fake.clock.advance(by: 301)
        let error = try await #require(throws: SessionError.self) { try await me(session) }
        #expect(error.kind == .sessionEnded)
        #expect(try await store.load() == nil)
    }

    @Test("sign-out revokes the refresh token, then the access token, at the provider's revocation endpoint")
    func signOutRevokes() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, _) = try await signedIn(fake, store: store)
        let stored = try #require(try await store.load())
        _ = try await session.signOut()
        #expect(fake.state.withLock { $0.revoked } == [stored.refreshToken, stored.accessToken.rawValue])
        let revocations = fake.requests.filter { $0.url.absoluteString.hasSuffix("/revoke_token/") }
        #expect(revocations.count == 2)
        #expect(revocations.allSatisfy { $0.url.absoluteString == fake.issuer.absoluteString + "/revoke_token/" })
    }

    @Test("a session the server gave no refresh token ends when its token is due, without sending an empty refresh token")
    func noRefreshTokenEnds() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        var configuration = SessionService.Configuration.oauth2(provider)
        let clock = fake.clock
        configuration.now = { clock.now }
        let store = InMemoryTokenStore()
        let session = SessionService(server: fake.api, tokenStore: store, configuration: configuration)
        let access = "access-without-refresh"
        fake.configure { $0.accessTokens[access] = ("user-42", clock.now.addingTimeInterval(60)) }
        try await session.startSession(tokens: Tokens(accessToken: AccessToken(access), refreshToken: "", expiresIn: 60),
                                       accountID: "user-42")
        #expect(try await me(session) == FakeMe(username: "user-42"))
        fake.clock.advance(by: 61)
        let error = try await #require(throws: SessionError.self) { try await me(session) }
        #expect(error.kind == .sessionEnded)
        #expect(error.reason == .refreshTokenRejected(nil))
        #expect(!fake.requests.contains { FakeOIDCServer.form(of: $0)["grant_type"] == "refresh_token" })
        #expect(try await store.load() == nil)
    }

    @Test("userinfo is read with the access token; without the endpoint it is flowUnavailable")
    func userInfo() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (_, provider) = try await signedIn(fake, store: store)
        let access = try #require(try await store.load()?.accessToken)
        let info = try await provider.userInfo(accessToken: access)
        #expect(info["sub"] == .string("user-42") && info["email_verified"] == .bool(true))
        await #expect(throws: SignInError.networkFailure) { try await provider.userInfo(accessToken: AccessToken("expired")) }
        let other = try FakeOIDCServer()
        other.configure { $0.document["userinfo_endpoint"] = nil }
        await #expect(throws: SignInError.flowUnavailable) {
            try await other.provider().userInfo(accessToken: access)
        }
    }
}
