import AppSDKHarness
import Foundation
import OAuthSignIn
import SessionEngine
import Testing

extension OAuthConformanceTests {
    /// The authorization-code flow with PKCE and a loopback redirect (RFC 8252 §7.3), through
    /// the docs' example (``OIDCAdopter/signInWithBrowser``), the test playing the user in
    /// Django's login and DOT's consent form.
    @Suite("Browser flow")
    struct BrowserFlow {
        let fixture: SignInFixture
        init() throws { fixture = try SignInFixture() }

        /// The docs' browser example, the user doing `act` on the URL it opens.
        func signIn(store: String = "browser",
                    _ act: @escaping @Sendable (OAuthTestUser, URL) async throws -> OAuthTestUser.Page)
            async throws -> (signIn: Result<(SessionService, SignInResult), any Error>, user: OAuthTestUser.Page?) {
            let (issuer, api) = (fixture.issuer, fixture.api)
            let tokenStore = try await fixture.store(store)
            let user = try OAuthTestUser.conformance()
            return try await UserInTheLoop.run(signIn: { open in
                try await OIDCAdopter.signInWithBrowser(issuer: issuer, clientID: OAuthTestServer.browserClientID, api: api,
                                                        store: tokenStore, openBrowser: open)
            }, user: { url in try await act(user, url) })
        }

        @Test("the user approves: the redirect lands on the loopback listener and the session starts with the ID token's sub")
        func approved() async throws {
            try await OAuthTestServer.reset()
            let (outcome, page) = try await signIn { user, url in try await user.authorize(url, .approve) }
            let (session, result) = try outcome.get()
            #expect(page?.status == 200, "the loopback listener answered the browser \(page?.status ?? 0)")
            let idToken = try #require(result.idToken)
            #expect(idToken.sub == (try await SignInFixture.userID()))
            #expect(result.accountID == idToken.sub)
            #expect(try await session.signedInAccountID() == idToken.sub)
            #expect(idToken.iss == OAuthTestServer.issuer)
            #expect(idToken.aud == [OAuthTestServer.browserClientID])
            #expect(idToken["preferred_username"]?.string == OAuthTestServer.username)
            #expect(try await SignInFixture.me(session).username == OAuthTestServer.username)
            let counters = try await OAuthTestServer.counters()
            #expect(counters.authorizationCodeCalls == 1)
            print("conformance: browser flow: approved in DOT's consent form, redirected to the loopback listener (\(page?.status ?? 0)), session for sub \(idToken.sub), \(counters.authorizationCodeCalls) code exchange")
            try await session.signOut()
        }

        @Test("a tampered state on the redirect is refused with stateMismatch, and no code is exchanged")
        func tamperedState() async throws {
            try await OAuthTestServer.reset()
            let (outcome, page) = try await signIn { user, url in
                let target = try await user.redirectTarget(of: url, .approve)
                var parts = try #require(URLComponents(url: target, resolvingAgainstBaseURL: false))
                #expect(parts.queryItems?.contains { $0.name == "state" } == true)
                parts.queryItems = parts.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "tampered") : $0 }
                return try await user.fetch(try #require(parts.url))
            }
            let error = #expect(throws: SignInError.self) { try outcome.get() }
            #expect(error?.kind == .stateMismatch)
            #expect(page != nil, "the browser's request reached the loopback listener")
            #expect(try await OAuthTestServer.counters().authorizationCodeCalls == 0)
            #expect(try await fixture.store("browser").load() == nil)
        }

        @Test("the user denies: the sign-in ends with accessDenied, and no code is exchanged")
        func denied() async throws {
            try await OAuthTestServer.reset()
            let (outcome, page) = try await signIn { user, url in try await user.authorize(url, .deny) }
            let error = #expect(throws: SignInError.self) { try outcome.get() }
            #expect(error?.kind == .accessDenied)
            #expect(page != nil)
            #expect(try await OAuthTestServer.counters().authorizationCodeCalls == 0)
            #expect(try await fixture.store("browser").load() == nil)
        }
    }
}
