import AppSDKHarness
import AppSDKTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// Issue 37, item 3: the sign-in flows ask for the level a step-up challenge named
/// (`acr_values`, `max_age`, `prompt=login`), check the new ID token's `acr` and `auth_time`
/// against it, and `signInAgain(with:)` keeps the new tokens for the same account only.
@Suite("Signing in again at the level a step-up challenge asks for")
struct StepUpSignInTests {
    let redirect = URL(string: "com.example.app:/callback")!
    static let requirement = AuthenticationRequirement(acrValues: ["urn:example:mfa", "phr"], maxAge: 300)

    /// A session signed in through the callback flow (no requirement), on `store`.
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

    /// The fake's ID tokens from now on carry `acr` and an `auth_time` `authAgo` seconds before
    /// the fake's now (none when `nil`), and `sub` (when given).
    func idTokens(_ fake: FakeOIDCServer, acr: String?, authAgo: TimeInterval?, sub: String? = nil) {
        let clock = fake.clock
        fake.configure {
            $0.idTokenClaims = { claims in
                var claims = claims
                if let acr { claims["acr"] = acr }
                if let authAgo { claims["auth_time"] = Int(clock.now.timeIntervalSince1970 - authAgo) }
                if let sub { claims["sub"] = sub }
                return claims
            }
        }
    }

    /// A second sign-in through the callback flow asking for `requirement`.
    func signInAgain(_ fake: FakeOIDCServer, _ session: SessionService, _ provider: OAuthProvider,
                     requirement: AuthenticationRequirement = requirement) async throws -> SignInResult {
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"], requiring: requirement)
        return try await session.signInAgain(with: .callback(fake.approve(request.url), for: request, provider))
    }

    @Test("the authorization URL asks for acr_values, max_age and prompt=login; an ID token that meets them replaces the tokens")
    func callbackMeetsRequirement() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        let before = try #require(try await store.load())
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"], requiring: Self.requirement)
        let query = FakeOIDCServer.query(of: request.url)
        #expect(query["acr_values"] == "urn:example:mfa phr")
        #expect(query["max_age"] == "300")
        #expect(query["prompt"] == "login")
        idTokens(fake, acr: "phr", authAgo: 0)
        fake.clock.advance(by: 1)   // the user signs in after the request was made
        let result = try await session.signInAgain(with: .callback(fake.approve(request.url), for: request, provider))
        #expect(result.accountID == "user-42")
        #expect(result.idToken?["acr"]?.string == "phr")
        let after = try #require(try await store.load())
        #expect(after.accountID == "user-42")
        #expect(after.accessToken != before.accessToken && after.refreshToken != before.refreshToken)
    }

    @Test("an ID token that does not show the level asked for fails with authenticationRequirementNotMet and keeps the old session",
          arguments: [
            (acr: String?.none, authAgo: TimeInterval?.some(0), why: "no acr"),
            (acr: "urn:example:password", authAgo: 0, why: "`urn:example:password`, not one of those"),
            (acr: "phr", authAgo: nil, why: "no usable auth_time"),
            (acr: "phr", authAgo: 3_600, why: "authenticated 3600 s ago"),
          ])
    func notMet(acr: String?, authAgo: TimeInterval?, why: String) async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        let before = try #require(try await store.load())
        idTokens(fake, acr: acr, authAgo: authAgo)
        let error = try await #require(throws: SignInError.self) { try await signInAgain(fake, session, provider) }
        #expect(error.kind == .authenticationRequirementNotMet)
        #expect(error.errorDescription?.contains(why) == true, "\(error)")
        #expect(error.errorDescription?.contains("urn:example:mfa") == true)
        #expect(!fake.secrets.contains { "\(error) \(error.debugDescription)".contains($0) })
        #expect(try await store.load() == before)
    }

    @Test("prompt=login: an auth_time before the sign-in began means the server did not ask the user again")
    func promptLoginNotHonoured() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        idTokens(fake, acr: nil, authAgo: 1_000)  // within the 300 s skew? no: 1000 s before the request
        let error = try await #require(throws: SignInError.self) {
            try await signInAgain(fake, session, provider, requirement: AuthenticationRequirement())
        }
        #expect(error.kind == .authenticationRequirementNotMet)
        #expect(error.errorDescription?.contains("did not ask the user again") == true)
        // Without prompt=login and max_age, an old auth_time is fine.
        #expect(try await signInAgain(fake, session, provider, requirement: AuthenticationRequirement(promptsLogin: false)).accountID == "user-42")
    }

    @Test("a sign-in again as another account is refused: accountMismatch, nothing stored, the old session kept")
    func otherAccountRefused() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        let before = try #require(try await store.load())
        idTokens(fake, acr: "phr", authAgo: 0, sub: "user-7")
        let error = try await #require(throws: SessionError.self) { try await signInAgain(fake, session, provider) }
        #expect(error.kind == .accountMismatch)
        #expect(try await store.load() == before)
        #expect(try await session.signedInAccountID() == "user-42")
    }

    @Test("the device flow sends acr_values, max_age and prompt=login; without an ID token nothing shows them met and nothing is stored")
    func deviceFlow() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        let before = try #require(try await store.load())
        fake.configure {
            $0.devicePolls = ["approve"]
            $0.sendsIDToken = false
        }
        let error = try await #require(throws: SignInError.self) {
            try await session.signInAgain(with: .device(provider, scopes: ["openid"]) { _ in }.requiring(Self.requirement))
        }
        #expect(error.kind == .authenticationRequirementNotMet)
        #expect(error.errorDescription?.contains("no ID token") == true)
        let start = try #require(fake.requests.last { $0.url.absoluteString.hasSuffix("/device-authorization/") })
        let form = FakeOIDCServer.form(of: start)
        #expect(form["acr_values"] == "urn:example:mfa phr" && form["max_age"] == "300" && form["prompt"] == "login")
        #expect(try await store.load() == before)

        // With an ID token that shows the level, the device sign-in replaces the tokens.
        fake.configure {
            $0.devicePolls = ["approve"]
            $0.sendsIDToken = true
        }
        idTokens(fake, acr: "urn:example:mfa", authAgo: -1)
        let result = try await session.signInAgain(with: .device(provider, scopes: ["openid"]) { _ in }.requiring(Self.requirement))
        #expect(result.idToken?["acr"]?.string == "urn:example:mfa")
        #expect(try await store.load()?.accessToken != before.accessToken)
    }

    @Test("client credentials have no user to step up: flowUnavailable before anything is sent")
    func clientCredentials() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider(clientID: FakeOIDCServer.confidentialClientID, clientSecret: FakeOIDCServer.clientSecret)
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let sent = fake.requests.count
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .clientCredentials(provider, scopes: ["read"]).requiring(AuthenticationRequirement()))
        }
        #expect(error.kind == .flowUnavailable)
        #expect(fake.requests.count == sent)
    }

    @Test("the whole round: a step-up challenge makes 0 refreshes; after the browser sign-in at that level the call succeeds")
    func wholeRound() async throws {
        let fake = try FakeOIDCServer()
        let store = InMemoryTokenStore()
        let (session, provider) = try await signedIn(fake, store: store)
        let weak = try #require(try await store.load()).accessToken.rawValue
        let challenge = #"Bearer error="insufficient_user_authentication", acr_values="urn:example:mfa phr", max_age=300"#
        fake.fake.route(.get, "/payments", origin: FakeOIDCServer.apiOrigin) { request in
            guard let header = request.header("Authorization"), header != "Bearer \(weak)" else {
                return .respond(status: 401, headers: ["WWW-Authenticate": challenge], body: Data())
            }
            return .json(200, object: ["username": "user-42"])
        }
        let pay: @Sendable (Server, AccessToken) async throws -> FakeMe = { server, token in
            try await server.send(PaymentsEndpoint(), accessToken: token)
        }
        let tokenRequests = fake.state.withLock { $0.tokenRequests }
        let error = try await #require(throws: SessionError.self) { try await session.request(handler: pay) }
        #expect(error.kind == .stepUpRequired)
        #expect(fake.state.withLock { $0.tokenRequests } == tokenRequests)   // 0 refreshes
        let requirement = try #require(error.authenticationRequirement)
        #expect(requirement == Self.requirement)

        idTokens(fake, acr: "urn:example:mfa", authAgo: -1)
        let opened = TestMutex<URL?>(nil)
        try await session.signInAgain(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20)) { url in
            opened.withLock { $0 = url }
            let callback = fake.approve(url)
            Task { _ = try await URLSession.shared.data(from: callback) }
        }.requiring(requirement))
        let url = try #require(opened.withLock { $0 })
        #expect(FakeOIDCServer.query(of: url)["acr_values"] == "urn:example:mfa phr")
        #expect(FakeOIDCServer.query(of: url)["prompt"] == "login")
        #expect(try await session.request(handler: pay) == FakeMe(username: "user-42"))
    }
}

/// `GET /payments` of the fake API, which asks for a step-up.
struct PaymentsEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/payments" }
}
