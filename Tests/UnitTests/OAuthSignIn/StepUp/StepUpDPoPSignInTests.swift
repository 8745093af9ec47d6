#if EncryptedTokenStore
import AppSDKHarness
import Foundation
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// Issue 37, item 3, for a DPoP-bound session: signing in again keeps the key rule of every
/// sign-in (a new sign-in makes a new key), and a refused sign-in keeps the old key with the
/// old tokens.
@Suite("Signing in again with a DPoP-bound session")
struct StepUpDPoPSignInTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    /// A session signed in through the browser flow, bound to an EdDSA key, and what made it.
    static func signedIn() async throws -> (FakeAS, OAuthProvider, InMemoryTokenStore, SessionService, LockedValue<URL?>) {
        let server = try FakeAS()
        var provider = try await server.provider()
        provider.dpop = .eddsa
        let store = InMemoryTokenStore()
        let session = try DPoPSessionSignInTests.session(provider, store: store)
        let opened = LockedValue<URL?>(nil)
        try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20),
                                                open: DPoPSessionSignInTests.approveInBrowser(server, opened: opened)))
        return (server, provider, store, session, opened)
    }

    @Test("signing in again as the same account binds the new tokens to a new key, named in the new dpop_jkt")
    func newKey() async throws {
        let (server, provider, store, session, opened) = try await Self.signedIn()
        let first = try #require(try await store.load()?.dpopKey)
        try await session.signInAgain(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20),
                                                     open: DPoPSessionSignInTests.approveInBrowser(server, opened: opened)))
        let second = try #require(try await store.load())
        let key = try #require(second.dpopKey)
        #expect(key.thumbprint != first.thumbprint)
        #expect(second.accountID == "user-42" && second.accessTokenType == "DPoP")
        #expect(FakeAS.query(of: try #require(opened.withLock { $0 }))["dpop_jkt"] == key.thumbprint)
        _ = try DPoPSessionSignInTests.expectProved(server.requests(to: "/token").last, by: key)
    }

    @Test("a sign-in again that does not meet the requirement stores nothing: the old tokens and key stay")
    func refusedKeepsKey() async throws {
        let (server, provider, store, session, opened) = try await Self.signedIn()
        let before = try #require(try await store.load())
        let error = try await #require(throws: SignInError.self) {
            try await session.signInAgain(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20),
                                                         open: DPoPSessionSignInTests.approveInBrowser(server, opened: opened))
                .requiring(AuthenticationRequirement(acrValues: ["urn:example:mfa"])))
        }
        #expect(error.kind == .authenticationRequirementNotMet)
        #expect(try await store.load() == before)
    }
}
#endif
