import AppSDKHarness
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

extension OAuthConformanceTests {
    /// The engine's scenarios (rotation under a storm, a reused refresh token, an outage,
    /// revocation) for a session that the browser flow started: a public client, whose
    /// refresh and revocation go to the discovered endpoints with its client id alone.
    @Suite("A session started by the browser flow")
    struct BrowserSession {
        let fixture: SignInFixture
        init() throws { fixture = try SignInFixture() }

        /// Signs in through the docs' browser example, the test approving in DOT's consent form.
        func signedIn(_ store: String = "browser-session") async throws -> SessionService {
            let (issuer, api) = (fixture.issuer, fixture.api)
            let tokenStore = try await fixture.store(store)
            let user = try OAuthTestUser.conformance()
            let (outcome, page) = try await UserInTheLoop.run(signIn: { open in
                try await OIDCAdopter.signInWithBrowser(issuer: issuer, clientID: OAuthTestServer.browserClientID, api: api,
                                                        store: tokenStore, openBrowser: open)
            }, user: { url in try await user.authorize(url, .approve) })
            #expect(page?.status == 200)
            return try outcome.get().0
        }

        /// The public client's refresh, as another program holding the same refresh token would make it.
        func refreshBehindTheSessionsBack(_ refreshToken: String) async throws {
            let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: OAuthTestServer.browserClientID)
            _ = try await oauth.refresh(refreshToken: refreshToken, server: fixture.api)
        }

        @Test("200 concurrent calls with an expired access token make exactly one refresh")
        func rotationStorm() async throws {
            let session = try await signedIn()
            _ = try await SignInFixture.me(session)
            try await OAuthTestServer.expireAccessTokens()
            try await OAuthTestServer.reset()
            let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<200 {
                    group.addTask { (try? await SignInFixture.me(session)) == nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let counters = try await OAuthTestServer.counters()
            #expect(failures == 0)
            #expect(counters.refreshCalls == 1)
            #expect(counters.invalidGrant == 0)
            print("conformance: browser-flow session, storm of 200 calls after a server-side expiry: \(counters.refreshCalls) refresh, \(failures) failed calls")
            try await session.signOut()
        }

        @Test("a refresh token rotated behind the session's back (reuse) ends the session: signedOut, store cleared")
        func reusedRefreshToken() async throws {
            let session = try await signedIn()
            let events = session.events()
            let stored = try #require(try await session.tokenStore.load())
            try await refreshBehindTheSessionsBack(stored.refreshToken)
            try await OAuthTestServer.expireAccessTokens()
            try await OAuthTestServer.reset()
            let error = await #expect(throws: SessionError.self) { try await SignInFixture.me(session) }
            #expect(error?.kind == .sessionEnded)
            #expect(error?.reason == .refreshTokenRejected(.invalidGrant))
            #expect(try await session.tokenStore.load() == nil)
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .signedOut(.refreshTokenRejected(.invalidGrant)))
            #expect(try await OAuthTestServer.counters().refreshCalls == 1)
        }

        @Test("the server stopped mid-session: a transient error, the credentials kept, and it works after the restart")
        func outage() async throws {
            let session = try await signedIn()
            _ = try await SignInFixture.me(session)
            let before = try #require(try await session.tokenStore.load())
            try OAuthTestServer.stop()
            var resumed = false
            defer { if !resumed { try? OAuthTestServer.resume() } }
            try await Task.sleep(for: .seconds(3))  // the access token is due for a refresh now
            do {
                _ = try await SignInFixture.me(session)
                Issue.record("a call to a stopped server succeeded")
            } catch let error as SessionError {
                #expect(error.kind == .refreshFailed)
                #expect(error.isTransient)
            } catch let error as NetworkError {
                #expect(error.isTransient)
            }
            #expect(try await session.tokenStore.load() == before)
            try OAuthTestServer.resume()
            resumed = true
            #expect(try await SignInFixture.me(session).username == OAuthTestServer.username)
            try await session.signOut()
        }

        @Test("sign-out revokes the session at the discovered revocation endpoint: its tokens are dead afterwards")
        func revocation() async throws {
            let session = try await signedIn()
            let stored = try #require(try await session.tokenStore.load())
            try await OAuthTestServer.reset()
            let result = try await session.signOut()
            #expect(result.serverConfirmed)
            #expect(try await OAuthTestServer.counters().revokeCalls >= 1)
            #expect(try await session.tokenStore.load() == nil)
            let access = await #expect(throws: NetworkError.self) {
                let _: Me = try await fixture.api.send(MeEndpoint(), accessToken: stored.accessToken)
            }
            #expect(access?.statusCode == 401)
            let refresh = await #expect(throws: NetworkError.self) { try await refreshBehindTheSessionsBack(stored.refreshToken) }
            #expect(refresh?.serverErrorCode == .invalidGrant)
        }
    }
}
