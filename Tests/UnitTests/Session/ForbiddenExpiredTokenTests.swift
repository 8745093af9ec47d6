import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue #19, item 4: a server that answers 403 for an expired token. A 403 whose challenge
/// says `error="invalid_token"` refreshes by default (RFC 6750 §3.1); a bare 403 only when the
/// policy opts in (`forbiddenMeansExpiredToken`), and a real permission 403 then costs one
/// refresh per call and no loop.
@Suite("403 for an expired token, when the server says so or the policy opts in")
struct ForbiddenExpiredTokenTests {
    /// How the fake refuses an expired (or unknown) access token.
    enum Refusal: Sendable {
        case invalidTokenChallenge, bare, insufficientScopeChallenge
    }

    /// A JSON server: `/api/token/refresh/` issues opaque 900-second tokens; `/api/me/` answers
    /// the owner for a live token and refuses others with `refusal`; `/api/admin/` answers a
    /// bare 403 to every live token (a permission the member lacks).
    final class Fake: Sendable {
        struct State {
            var live: Set<String> = ["access-0"]
            var serial = 0
            var refreshes = 0
            var apiRequests = 0
            /// Every access token is refused, fresh or not (a server in a loop).
            var refusesEveryToken = false
            var sendsExpiresIn = true
        }
        let state = TestMutex(State())
        let transport: TestTransport

        init(refusal: Refusal) {
            transport = TestTransport()
            transport.serve { [weak self] request in
                guard let self else { throw TransportError(.cannotConnect) }
                return self.state.withLock { state in
                    if request.target == "/api/token/refresh/" {
                        state.refreshes += 1
                        state.serial += 1
                        state.live = ["access-\(state.serial)"]
                        let expiry = state.sendsExpiresIn ? #","expires_in":900"# : ""
                        return .json(200, #"{"access_token":"access-\#(state.serial)","refresh_token":"refresh-\#(state.serial)"\#(expiry)}"#)
                    }
                    state.apiRequests += 1
                    let token = request.value(forHeaderField: "Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
                    guard state.live.contains(token), !state.refusesEveryToken else {
                        switch refusal {
                        case .invalidTokenChallenge:
                            return TestTransport.Reply(status: 403, headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#])
                        case .insufficientScopeChallenge:
                            return TestTransport.Reply(status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="admin""#])
                        case .bare:
                            return .status(403)
                        }
                    }
                    return request.target == "/api/admin/" ? .status(403) : .json(200, #"{"username":"kim"}"#)
                }
            }
        }

        var refreshes: Int { state.withLock { $0.refreshes } }
        var apiRequests: Int { state.withLock { $0.apiRequests } }
        /// The server expires every access token before its time (or revokes it).
        func expireAccessTokens() { state.withLock { $0.live = [] } }
    }

    /// `/api/admin/`: a resource the member may not see.
    enum AdminEndpoint: Endpoint {
        case reports
        var method: HTTPMethod { .get }
        var path: EndpointPath { "/api/admin/" }
    }

    private func service(_ fake: Fake, policy: AuthenticationFailurePolicy = .default) throws -> RepositoryService {
        let clock = TestClock()
        var configuration = RepositoryService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { clock.now }
        configuration.authenticationFailurePolicy = policy
        let stored = Credentials(accessToken: AccessToken("access-0"), refreshToken: "refresh-0", accessTokenExpiresAt: clock.now.addingTimeInterval(900),
                                 accountID: "kim", accessTokenIssuedAt: clock.now)
        return RepositoryService(server: try Server(baseURL: "https://api.example.com", transport: fake.transport),
                                 tokenStore: InMemoryTokenStore(credentials: stored), configuration: configuration)
    }

    private func me(_ service: RepositoryService) async throws -> ResourceOwner {
        try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) }
    }

    @Test("a 403 whose challenge says invalid_token refreshes once and retries, by default")
    func invalidTokenChallengeRefreshes() async throws {
        let fake = Fake(refusal: .invalidTokenChallenge)
        let service = try service(fake)
        fake.expireAccessTokens()
        #expect(try await me(service).username == "kim")
        #expect(fake.refreshes == 1)
        #expect(fake.apiRequests == 2)
    }

    @Test("a bare 403 does not refresh by default: the caller gets the 403")
    func bareForbiddenDoesNotRefreshByDefault() async throws {
        let fake = Fake(refusal: .bare)
        let service = try service(fake)
        fake.expireAccessTokens()
        let error = await #expect(throws: NetworkError.self) { try await me(service) }
        #expect(error?.statusCode == 403)
        #expect(fake.refreshes == 0)
        #expect(fake.apiRequests == 1)
    }

    @Test("a bare 403 refreshes once and retries when the policy opts in")
    func bareForbiddenRefreshesWhenOptedIn() async throws {
        let fake = Fake(refusal: .bare)
        let service = try service(fake, policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true))
        fake.expireAccessTokens()
        #expect(try await me(service).username == "kim")
        #expect(fake.refreshes == 1)
        #expect(fake.apiRequests == 2)
    }

    @Test("a 403 whose challenge says insufficient_scope never refreshes, even opted in")
    func insufficientScopeNeverRefreshes() async throws {
        let fake = Fake(refusal: .insufficientScopeChallenge)
        let service = try service(fake, policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true))
        fake.expireAccessTokens()
        let error = await #expect(throws: NetworkError.self) { try await me(service) }
        #expect(error?.serverErrorCode == .insufficientScope)
        #expect(fake.refreshes == 0)
    }

    @Test("opted in, a real permission 403 costs one refresh per call, and the refresh limit stops it: 10 calls, 5 refreshes, every call gets the 403")
    func permissionForbiddenDoesNotLoop() async throws {
        let fake = Fake(refusal: .bare)
        let service = try service(fake, policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true))
        var statuses: [Int?] = []
        for _ in 0..<10 {
            do {
                try await service.request { server, token in try await server.send(AdminEndpoint.reports, accessToken: token) }
            } catch let error as NetworkError {
                statuses.append(error.statusCode)
            }
        }
        #expect(statuses == Array(repeating: 403, count: 10))
        #expect(fake.refreshes == RefreshLimit().maximumRefreshes)
        #expect(fake.apiRequests == 5 * 2 + 5 * 1)
        // The session is intact: the resource it may see still answers.
        #expect(try await me(service).username == "kim")
    }

    @Test("a server refusing every token with 403 invalid_token (expiry unknown) is stopped by the refresh limit: a 403 that refused the token does not count as accepting it")
    func invalidTokenLoopIsStopped() async throws {
        let fake = Fake(refusal: .invalidTokenChallenge)
        fake.state.withLock { $0.sendsExpiresIn = false; $0.refusesEveryToken = true }
        let clock = TestClock()
        var configuration = RepositoryService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { clock.now }
        let stored = Credentials(accessToken: AccessToken("access-0"), refreshToken: "refresh-0", accessTokenExpiresAt: nil,
                                 accountID: "kim", accessTokenIssuedAt: clock.now)
        let service = RepositoryService(server: try Server(baseURL: "https://api.example.com", transport: fake.transport),
                                        tokenStore: InMemoryTokenStore(credentials: stored), configuration: configuration)
        var limited = false
        for _ in 0..<12 {
            clock.advance(by: 2)  // each token is two seconds old when it is refused: not young
            do { _ = try await me(service) } catch let error as SessionError where error.kind == .refreshLimitExceeded {
                limited = true
            } catch {}
        }
        #expect(limited)
        #expect(fake.refreshes == RefreshLimit().maximumRefreshes)
    }

    @Test("the policy: an invalid_token challenge counts on a 403; a bare 403 only opted in, and then filtered by codes like a 401")
    func policyMatching() {
        func forbidden(challenge: String? = nil, code: ServerErrorCode? = nil) -> NetworkError {
            NetworkError(kind: .httpStatus, method: .get, path: "/api/me/", statusCode: 403, serverErrorCode: code,
                         authenticateChallenge: challenge)
        }
        let invalidToken = forbidden(challenge: #"Bearer error="invalid_token""#, code: .invalidToken)
        let optedIn = AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true)
        #expect(invalidToken.isAuthenticationFailure)
        #expect(invalidToken.isAuthenticationFailure(under: .strictBearerChallenge))
        #expect(!forbidden().isAuthenticationFailure)
        #expect(!forbidden(code: "not_authenticated").isAuthenticationFailure(under: AuthenticationFailurePolicy(statusCodes: [401, 403])))
        #expect(forbidden().isAuthenticationFailure(under: optedIn))
        let onlyExpired = AuthenticationFailurePolicy(serverErrorCodes: ["token_expired"], forbiddenMeansExpiredToken: true)
        #expect(forbidden(code: "token_expired").isAuthenticationFailure(under: onlyExpired))
        #expect(!forbidden(code: "permission_denied").isAuthenticationFailure(under: onlyExpired))
        #expect(!forbidden(challenge: #"Bearer error="insufficient_scope""#).isAuthenticationFailure(under: optedIn))
    }
}
