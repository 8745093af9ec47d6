import AppSDKHarness
import Foundation
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

extension OAuthConformanceTests {
    /// The device authorization grant (RFC 8628) through the docs' example
    /// (``OIDCAdopter/signInWithDevice``), the test entering the code in DOT's device views
    /// while the SDK polls (DOT's interval: 1 s).
    @Suite("Device flow")
    struct DeviceFlow {
        let fixture: SignInFixture
        init() throws { fixture = try SignInFixture() }

        /// The docs' device example, the user doing `act` once the SDK has polled `polls` times.
        func signIn(afterPolls polls: Int = 1,
                    _ act: @escaping @Sendable (OAuthTestUser, DeviceAuthorization) async throws -> Void)
            async throws -> (signIn: Result<(SessionService, SignInResult), any Error>, user: DeviceAuthorization?) {
            let (issuer, api) = (fixture.issuer, fixture.api)
            let tokenStore = try await fixture.store("device")
            let user = try OAuthTestUser.conformance()
            return try await UserInTheLoop.run(signIn: { show in
                try await OIDCAdopter.signInWithDevice(issuer: issuer, clientID: OAuthTestServer.deviceClientID, api: api,
                                                       store: tokenStore, showCode: show)
            }, user: { authorization in
                try await UserInTheLoop.waitForPolls(polls)
                try await act(user, authorization)
                return authorization
            })
        }

        @Test("the user enters the code and approves while the SDK polls: authorization_pending first, then the session starts")
        func approved() async throws {
            try await OAuthTestServer.reset()
            let started = ContinuousClock.now
            let (outcome, shown) = try await signIn { user, authorization in
                try await user.decide(userCode: authorization.userCode, .approve)
            }
            let elapsed = ContinuousClock.now - started
            let (session, result) = try outcome.get()
            let authorization = try #require(shown)
            #expect(authorization.verificationURI.absoluteString == (try #require(OAuthTestServer.url)) + "/o/device/")
            #expect(authorization.verificationURIComplete?.absoluteString.hasSuffix("user_code=" + authorization.userCode) == true)
            #expect(authorization.interval == 1)
            let counters = try await OAuthTestServer.counters()
            // At least one poll answered authorization_pending before the one that got the tokens,
            // and none came sooner than the interval (the server would have said slow_down).
            #expect(counters.authorizationPending >= 1)
            #expect(counters.slowDown == 0)
            #expect(counters.deviceCodeCalls == counters.authorizationPending + 1)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let idToken = try #require(result.idToken)
            #expect(idToken.sub == (try await SignInFixture.userID()))
            #expect(idToken.aud == [OAuthTestServer.deviceClientID])
            #expect(result.accountID == idToken.sub)
            #expect(try await session.signedInAccountID() == idToken.sub)
            #expect(try await SignInFixture.me(session).username == OAuthTestServer.username)
            print("conformance: device flow: \(counters.deviceCodeCalls) polls in \(String(format: "%.1f", seconds)) s (\(counters.deviceCodeCalls - 1) authorization_pending), approved in DOT's device views, session for \(result.accountID)")
            try await session.signOut()
        }

        @Test("slow_down is honoured: the SDK waits the interval plus 5 s before polling again")
        func slowDown() async throws {
            try await OAuthTestServer.reset()
            let slowedDown = LockedValue<ContinuousClock.Instant?>(nil)
            let (outcome, _) = try await signIn { user, authorization in
                try await OAuthTestServer.slowDownDeviceCodes()
                try await UserInTheLoop.waitForPolls(2)  // the one answered slow_down
                slowedDown.withLock { $0 = .now }
                try await user.decide(userCode: authorization.userCode, .approve)
            }
            let ended = ContinuousClock.now
            let (session, _) = try outcome.get()
            let counters = try await OAuthTestServer.counters()
            #expect(counters.slowDown == 1)
            #expect(counters.deviceCodeCalls == 3)  // pending, slow_down, the tokens
            let waited = ended - (try #require(slowedDown.withLock { $0 }))
            // 1 s + 5 s after the slow_down answer (which this task notices a little late).
            #expect(waited >= .seconds(5.5), "polled again \(waited) after slow_down")
            print("conformance: device flow: slow_down answered, the next poll came \(waited) later (interval 1 s + 5 s)")
            try await session.signOut()
        }

        @Test("the user denies the code: the sign-in ends with accessDenied (RFC 8628 access_denied)")
        func denied() async throws {
            try await OAuthTestServer.reset()
            let (outcome, _) = try await signIn { user, authorization in
                try await user.decide(userCode: authorization.userCode, .deny)
            }
            let error = #expect(throws: SignInError.self) { try outcome.get() }
            #expect(error?.kind == .accessDenied)
            #expect(try await fixture.store("device").load() == nil)
        }

        @Test("the code expires before anyone approves: the sign-in ends with expiredToken (RFC 8628 expired_token)")
        func expired() async throws {
            try await OAuthTestServer.reset()
            let (outcome, _) = try await signIn { _, _ in try await OAuthTestServer.expireDeviceCodes() }
            let error = #expect(throws: SignInError.self) { try outcome.get() }
            #expect(error?.kind == .expiredToken)
            #expect(try await fixture.store("device").load() == nil)
        }
    }
}
