import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue #22, item 1: a handler whose transport is not the SDK's own (a generated OpenAPI
/// client) throws `ResponseStatusError`, and the engine classifies it like a `NetworkError`
/// with the same status, by the configuration's policy.
@Suite("A handler's ResponseStatusError is classified like the SDK's own NetworkError")
struct ResponseStatusErrorTests {
    /// The API behind a transport of the handler's own: it accepts only live access tokens
    /// and refuses others with `refusal`; its refresh call, through the SDK's transport,
    /// issues the next token.
    final class Fake: Sendable {
        struct State {
            var live: Set<String> = ["access-0"]
            var serial = 0
            var refreshes = 0
            var calls: [String] = []
            var refusesEveryToken = false
        }
        let state = TestMutex(State())
        let refusal: ResponseStatusError
        let transport: TestTransport

        init(refusal: ResponseStatusError = ResponseStatusError(statusCode: 401, method: "GET", path: "/api/me")) {
            self.refusal = refusal
            transport = TestTransport()
            transport.serve { [weak self] _ in
                guard let self else { throw TransportError(.cannotConnect) }
                return self.state.withLock { state in
                    state.refreshes += 1
                    state.serial += 1
                    state.live = ["access-\(state.serial)"]
                    return .json(200, #"{"access_token":"access-\#(state.serial)","refresh_token":"refresh-\#(state.serial)","expires_in":900}"#)
                }
            }
        }

        /// What the handler does with its own transport: answers for a live token, throws
        /// `refusal` otherwise.
        func call(with token: AccessToken) throws -> String {
            try state.withLock { state in
                state.calls.append(token.rawValue)
                guard state.live.contains(token.rawValue), !state.refusesEveryToken else { throw refusal }
                return "kim"
            }
        }

        var refreshes: Int { state.withLock { $0.refreshes } }
        var calls: [String] { state.withLock { $0.calls } }
        func expireAccessTokens() { state.withLock { $0.live = [] } }
    }

    func service(_ fake: Fake, policy: AuthenticationFailurePolicy = .default) throws -> SessionService {
        let clock = TestClock()
        var configuration = SessionService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { clock.now }
        configuration.authenticationFailurePolicy = policy
        let stored = Credentials(accessToken: AccessToken("access-0"), refreshToken: "refresh-0", accessTokenExpiresAt: clock.now.addingTimeInterval(900),
                                 accountID: "kim", accessTokenIssuedAt: clock.now)
        return SessionService(server: try Server(baseURL: "https://api.example.com", transport: fake.transport),
                              tokenStore: InMemoryTokenStore(credentials: stored), configuration: configuration)
    }

    func me(_ service: SessionService, _ fake: Fake) async throws -> String {
        try await service.request { _, token in try fake.call(with: token) }
    }

    @Test("a 401 thrown by the handler refreshes once and calls the handler again with the new token")
    func unauthorizedRefreshesAndRetries() async throws {
        let fake = Fake()
        let service = try service(fake)
        fake.expireAccessTokens()
        #expect(try await me(service, fake) == "kim")
        #expect(fake.refreshes == 1)
        #expect(fake.calls == ["access-0", "access-1"])
    }

    @Test("200 concurrent handlers refused with 401 share one refresh")
    func concurrentRefusalsShareOneRefresh() async throws {
        let fake = Fake()
        let service = try service(fake)
        fake.expireAccessTokens()
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 { group.addTask { (try? await me(service, fake)) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 0)
        #expect(fake.refreshes == 1)
    }

    @Test("a 401 again after the refresh reaches the caller as thrown: one refresh, two calls, no loop")
    func secondRefusalReachesTheCaller() async throws {
        let fake = Fake()
        let service = try service(fake)
        fake.state.withLock { $0.refusesEveryToken = true }
        let error = await #expect(throws: ResponseStatusError.self) { try await me(service, fake) }
        #expect(error == fake.refusal)
        #expect(fake.refreshes == 1)
        #expect(fake.calls.count == 2)
    }

    @Test("a 403 whose challenge says invalid_token refreshes and retries by default")
    func invalidTokenForbiddenRefreshes() async throws {
        let fake = Fake(refusal: ResponseStatusError(statusCode: 403, method: "GET", path: "/api/me",
                                                     authenticateChallenge: #"Bearer error="invalid_token""#))
        let service = try service(fake)
        fake.expireAccessTokens()
        #expect(try await me(service, fake) == "kim")
        #expect(fake.refreshes == 1)
    }

    @Test("a bare 403 never refreshes by default: the caller gets it as thrown")
    func bareForbiddenDoesNotRefresh() async throws {
        let fake = Fake(refusal: ResponseStatusError(statusCode: 403, method: "GET", path: "/api/me"))
        let service = try service(fake)
        fake.expireAccessTokens()
        let error = await #expect(throws: ResponseStatusError.self) { try await me(service, fake) }
        #expect(error?.statusCode == 403)
        #expect(fake.refreshes == 0)
        #expect(fake.calls.count == 1)
    }

    @Test("a bare 403 refreshes when the policy opts in; insufficient_scope never does")
    func forbiddenFollowsThePolicy() async throws {
        let optedIn = AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true)
        let bare = Fake(refusal: ResponseStatusError(statusCode: 403, method: "GET", path: "/api/me"))
        let bareService = try service(bare, policy: optedIn)
        bare.expireAccessTokens()
        #expect(try await me(bareService, bare) == "kim")
        #expect(bare.refreshes == 1)

        let scope = Fake(refusal: ResponseStatusError(statusCode: 403, method: "GET", path: "/api/me",
                                                      authenticateChallenge: #"Bearer error="insufficient_scope""#))
        let scopeService = try service(scope, policy: optedIn)
        scope.expireAccessTokens()
        await #expect(throws: ResponseStatusError.self) { try await me(scopeService, scope) }
        #expect(scope.refreshes == 0)
    }

    @Test("a policy that names server error codes counts a 401 only with one of them")
    func serverErrorCodesFilter() async throws {
        let policy = AuthenticationFailurePolicy(serverErrorCodes: [.tokenExpired])
        let uncoded = Fake()
        let uncodedService = try service(uncoded, policy: policy)
        uncoded.expireAccessTokens()
        await #expect(throws: ResponseStatusError.self) { try await me(uncodedService, uncoded) }
        #expect(uncoded.refreshes == 0)

        let coded = Fake(refusal: ResponseStatusError(statusCode: 401, method: "GET", path: "/api/me", serverErrorCode: .tokenExpired))
        let codedService = try service(coded, policy: policy)
        coded.expireAccessTokens()
        #expect(try await me(codedService, coded) == "kim")
        #expect(coded.refreshes == 1)
    }

    @Test("its message names the call and the status; a token the challenge echoes is redacted, and still classified")
    func messageHidesTheChallenge() {
        let secret = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraW0ifQ.c2lnbmF0dXJlLXNlY3JldA"
        let error = ResponseStatusError(statusCode: 403, method: "post", path: "/v1/posts",
                                        authenticateChallenge: #"Bearer error="invalid_token", error_description="\#(secret) expired""#,
                                        serverErrorCode: .tokenExpired)
        #expect(error.localizedDescription == "POST /v1/posts failed: HTTP 403 token_expired")
        #expect(!String(describing: error).contains(secret))
        #expect(!String(reflecting: error).contains(secret))
        #expect(error.authenticateChallenge?.contains(secret) == false)
        #expect(error.authenticateChallenge?.contains(#"error="invalid_token""#) == true)
    }
}
