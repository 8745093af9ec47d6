import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue 37, item 3: a resource's step-up challenge (RFC 9470) is never a refresh trigger and
/// never counts toward the refresh limit; it reaches the caller as `stepUpRequired` with what
/// the server asks for, and as an event; the session is kept; a new sign-in of the same
/// account replaces its tokens, another account's is refused.
@Suite("Step-up challenges in the engine")
struct StepUpSessionTests {
    /// A JSON server: `/api/token/refresh/` issues 900-second tokens; `/api/me/` answers any live
    /// token (a 401 `invalid_token` for others); `/api/payments/` answers a live token that was
    /// issued by a strong sign-in, and asks any other live one for a step-up with `challenge`.
    final class Fake: Sendable {
        struct State {
            var live: Set<String> = ["access-0"]
            var strong: Set<String> = []
            var serial = 0
            var refreshes = 0
            var paymentRequests = 0
        }
        let state = TestMutex(State())
        let transport = TestTransport()
        let challenge: String

        init(challenge: String = #"Bearer error="insufficient_user_authentication", acr_values="urn:example:mfa phr", max_age=300"#) {
            self.challenge = challenge
            transport.serve { [weak self] request in
                guard let self else { throw TransportError(.cannotConnect) }
                return self.state.withLock { state in
                    if request.target == "/api/token/refresh/" {
                        state.refreshes += 1
                        state.serial += 1
                        state.live = ["access-\(state.serial)"]
                        return .json(200, #"{"access_token":"access-\#(state.serial)","refresh_token":"refresh-\#(state.serial)","expires_in":900}"#)
                    }
                    let token = request.value(forHeaderField: "Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
                    guard state.live.contains(token) else {
                        return TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
                    }
                    if request.target == "/api/payments/" {
                        state.paymentRequests += 1
                        guard state.strong.contains(token) else {
                            return TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": self.challenge])
                        }
                    }
                    return .json(200, #"{"username":"kim"}"#)
                }
            }
        }

        var refreshes: Int { state.withLock { $0.refreshes } }
        var paymentRequests: Int { state.withLock { $0.paymentRequests } }
        /// A sign-in at a higher level issued `token`.
        func issueStrong(_ token: String) { state.withLock { $0.live = [token]; $0.strong.insert(token) } }
        func expireAccessTokens() { state.withLock { $0.live = [] } }
    }

    enum PaymentsEndpoint: Endpoint {
        case pay
        var method: HTTPMethod { .get }
        var path: EndpointPath { "/api/payments/" }
    }

    let clock = TestClock()

    private func service(_ fake: Fake, store: InMemoryTokenStore? = nil) throws -> (RepositoryService, InMemoryTokenStore) {
        var configuration = RepositoryService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { [clock] in clock.now }
        configuration.refreshLimit = RefreshLimit(maximumRefreshes: 3, interval: 60)
        let stored = Credentials(accessToken: AccessToken("access-0"), refreshToken: "refresh-0",
                                 accessTokenExpiresAt: clock.now.addingTimeInterval(900), accountID: "kim",
                                 accessTokenIssuedAt: clock.now)
        let store = store ?? InMemoryTokenStore(credentials: stored)
        let service = RepositoryService(server: try Server(baseURL: "https://api.example.com", transport: fake.transport),
                                        tokenStore: store, configuration: configuration)
        return (service, store)
    }

    private func pay(_ service: RepositoryService) async throws -> ResourceOwner {
        try await service.request { server, token in try await server.send(PaymentsEndpoint.pay, accessToken: token) }
    }

    @Test("a step-up challenge makes 0 refreshes and throws stepUpRequired with the acr values and max age; the session is kept")
    func noRefresh() async throws {
        let fake = Fake()
        let (service, store) = try service(fake)
        var events = service.events().makeAsyncIterator()
        let error = await #expect(throws: SessionError.self) { try await pay(service) }
        #expect(error?.kind == .stepUpRequired)
        #expect(error?.authenticationRequirement == AuthenticationRequirement(acrValues: ["urn:example:mfa", "phr"], maxAge: 300))
        #expect(error?.isTransient == false)
        #expect(error?.errorDescription?.contains("urn:example:mfa") == true)
        #expect(error?.errorDescription?.contains("300 s") == true)
        #expect((error?.underlying as? NetworkError)?.statusCode == 401)
        #expect(fake.refreshes == 0)
        #expect(fake.paymentRequests == 1)
        let event = await events.next()
        #expect(event == .stepUpRequired(accountID: "kim", requirement: AuthenticationRequirement(acrValues: ["urn:example:mfa", "phr"], maxAge: 300)))
        #expect(try await store.load()?.accessToken.rawValue == "access-0")
        #expect(try await service.isSignedIn())
    }

    @Test("step-up challenges never count toward the refresh limit: 20 of them, then an expired token still refreshes")
    func notCountedByRefreshLimit() async throws {
        let fake = Fake()
        let (service, _) = try service(fake)
        for _ in 0..<20 {
            await #expect(throws: SessionError.self) { try await pay(service) }
        }
        #expect(fake.refreshes == 0)
        fake.expireAccessTokens()
        let me = try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) } as ResourceOwner
        #expect(me.username == "kim")
        #expect(fake.refreshes == 1)
    }

    @Test("a DPoP-scheme challenge and a handler's own ResponseStatusError are step-ups too")
    func dpopSchemeAndResponseStatusError() async throws {
        let fake = Fake(challenge: #"DPoP algs="ES256", error="insufficient_user_authentication", max_age=0"#)
        let (service, _) = try service(fake)
        let error = await #expect(throws: SessionError.self) { try await pay(service) }
        #expect(error?.authenticationRequirement?.maxAge == 0)
        let header = #"Bearer error="insufficient_user_authentication", acr_values="http://schemas.openid.net/pape/policies/2007/06/multi-factor""#
        let own = await #expect(throws: SessionError.self) {
            try await service.request { _, _ -> Int in
                throw ResponseStatusError(statusCode: 401, method: "POST", path: "/api/payments/", authenticateChallenge: header)
            }
        }
        #expect(own?.kind == .stepUpRequired)
        #expect(own?.authenticationRequirement?.acrValues == ["http://schemas.openid.net/pape/policies/2007/06/multi-factor"])
        #expect(fake.refreshes == 0)
    }

    @Test("an unreadable challenge (max_age=-1) is still a step-up: no refresh, no requirement, the reason as underlying error")
    func unreadableChallenge() async throws {
        let fake = Fake(challenge: #"Bearer error="insufficient_user_authentication", max_age="-1""#)
        let (service, _) = try service(fake)
        var events = service.events().makeAsyncIterator()
        let error = await #expect(throws: SessionError.self) { try await pay(service) }
        #expect(error?.kind == .stepUpRequired)
        #expect(error?.authenticationRequirement == nil)
        #expect((error?.underlying as? StepUpChallengeError)?.kind == .invalidMaxAge)
        #expect(error?.description.contains("max_age") == true)
        #expect(fake.refreshes == 0)
        #expect(await events.next() == .stepUpRequired(accountID: "kim", requirement: nil))
    }

    @Test("signing in again as the same account replaces the tokens, and the call then succeeds")
    func signInAgainSameAccount() async throws {
        let fake = Fake()
        let (service, store) = try service(fake)
        await #expect(throws: SessionError.self) { try await pay(service) }
        let stored = try await service.signInAgain {
            fake.issueStrong("access-strong")
            return try await service.startSession(tokens: Tokens(accessToken: AccessToken("access-strong"), refreshToken: "refresh-strong",
                                                                 expiresIn: 900), accountID: "kim")
        }
        #expect(stored == "kim")
        #expect(try await store.load()?.accessToken.rawValue == "access-strong")
        #expect(try await pay(service).username == "kim")
        #expect(fake.refreshes == 0)
    }

    @Test("signing in again as another account is refused: nothing stored, the old session kept and still working")
    func signInAgainOtherAccount() async throws {
        let fake = Fake()
        let (service, store) = try service(fake)
        let error = await #expect(throws: SessionError.self) {
            try await service.signInAgain {
                try await service.startSession(tokens: Tokens(accountID: "lee"), accountID: "lee")
            }
        }
        #expect(error?.kind == .accountMismatch)
        #expect(error?.errorDescription?.contains("another account") == true)
        let kept = try await store.load()
        #expect(kept?.accountID == "kim" && kept?.accessToken.rawValue == "access-0")
        let me = try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) } as ResourceOwner
        #expect(me.username == "kim")
        // Outside signInAgain, a sign-in of another account replaces the session as before.
        try await service.startSession(tokens: Tokens(accountID: "lee"), accountID: "lee")
        #expect(try await store.load()?.accountID == "lee")
    }

    @Test("signing in again with nobody signed in is refused before the sign-in runs")
    func signInAgainNotSignedIn() async throws {
        let fake = Fake()
        let (service, _) = try service(fake, store: InMemoryTokenStore())
        let ran = TestMutex(false)
        let error = await #expect(throws: SessionError.self) {
            try await service.signInAgain { ran.withLock { $0 = true } }
        }
        #expect(error?.kind == .notSignedIn)
        #expect(!ran.withLock { $0 })
    }

    @Test("a store that came to hold another account meanwhile is not overwritten by the sign-in again")
    func storeChangedMeanwhile() async throws {
        let fake = Fake()
        let (service, store) = try service(fake)
        let other = Credentials(accessToken: AccessToken("access-lee"), refreshToken: "refresh-lee", accessTokenExpiresAt: nil,
                                accountID: "lee", accessTokenIssuedAt: nil)
        let error = await #expect(throws: SessionError.self) {
            try await service.signInAgain {
                try await store.save(other)   // another program signed in as lee
                return try await service.startSession(tokens: Tokens(accountID: "kim"), accountID: "kim")
            }
        }
        #expect(error?.kind == .accountMismatch)
        #expect(try await store.load()?.accessToken.rawValue == "access-lee")
    }
}

private extension Tokens {
    /// Tokens of a new sign-in of `accountID`.
    init(accountID: String) {
        self.init(accessToken: AccessToken("access-\(accountID)-new"), refreshToken: "refresh-\(accountID)-new", expiresIn: 900)
    }
}
