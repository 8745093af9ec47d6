import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Synchronization
import Testing
import TokenStore

/// Issue #19, item 2: a refresh refused with a 4xx that no failure rule names (a rule that
/// does not match the server) used to be `refreshFailed`-transient, so every call presented
/// the dead refresh token again. Now the first such answer ends the session, naming the
/// status and code (`RefreshFailureRule.refusedRequest` says why the first).
@Suite("A refresh refused with a 4xx no rule names ends the session at the first answer")
struct RefusedRefreshTests {
    /// A preset, a rule over it (or its own), and how the server refuses its refresh.
    struct Case: Sendable, CustomTestStringConvertible {
        let preset: String
        let rule: String
        let refreshPath: String
        let status: Int
        let body: String
        let code: ServerErrorCode?
        var testDescription: String { "\(preset) preset, \(rule) rule, refresh answered \(status) \(code?.rawValue ?? "without a code")" }

        func configuration() -> RepositoryService.Configuration {
            var configuration: RepositoryService.Configuration
            switch preset {
            case "oauth2": configuration = .oauth2(tokenEndpoint: "/o/token/", clientID: "cli", clientSecret: "s3cret-s3cret")
            case "json": configuration = .json(JSONTokenRefresh(path: "/api/token/refresh/", refreshTokenField: "refresh",
                                                                accessTokenKey: "access", refreshTokenKey: "refresh"))
            default: configuration = .appAPI
            }
            if rule == "the app's" { configuration.refreshFailureRule = .appAPI }
            return configuration
        }
    }

    static let cases: [Case] = [
        Case(preset: "appAPI", rule: "its own", refreshPath: "/v1/auth/refresh", status: 403,
             body: #"{"error":{"code":"forbidden","message":"refresh is not allowed"}}"#, code: .forbidden),
        Case(preset: "oauth2", rule: "the app's", refreshPath: "/o/token/", status: 400,
             body: #"{"error":"invalid_grant","error_description":"Invalid refresh token"}"#, code: .invalidGrant),
        Case(preset: "oauth2", rule: "its own", refreshPath: "/o/token/", status: 403, body: "", code: nil),
        Case(preset: "oauth2", rule: "its own", refreshPath: "/o/token/", status: 401,
             body: #"{"error":"invalid_client"}"#, code: .invalidClient),
        Case(preset: "json", rule: "the app's", refreshPath: "/api/token/refresh/", status: 401,
             body: #"{"detail":"Token is blacklisted","code":"token_not_valid"}"#, code: .tokenNotValid),
        Case(preset: "json", rule: "its own", refreshPath: "/api/token/refresh/", status: 400,
             body: #"{"refresh":["This field is required."]}"#, code: nil),
    ]

    /// A server whose refresh endpoint answers `status` and `body`, and whose API answers
    /// anything else with 200; it counts the refresh requests.
    private func server(refreshPath: String, status: Int, body: String) throws -> (Server, TestTransport) {
        let transport = TestTransport { request in
            request.target == refreshPath ? .json(status, body) : .json(200, #"{"username":"kim"}"#)
        }
        return (try Server(baseURL: "https://api.example.com", transport: transport), transport)
    }

    /// Stored credentials whose access token expired a second ago: every call refreshes first.
    private func expiredSession(at now: Date) -> Credentials {
        Credentials(accessToken: AccessToken("access-1"), refreshToken: "refresh-1", accessTokenExpiresAt: now.addingTimeInterval(-1),
                    accountID: "kim", accessTokenIssuedAt: now.addingTimeInterval(-900))
    }

    private func call(_ service: RepositoryService) async throws {
        let _: ResourceOwner = try await service.request { server, token in try await server.send(ResourceEndpoint.me, accessToken: token) }
    }

    @Test("11 calls make 1 refresh request: the session ends with the status and code, the store is cleared, one signedOut",
          arguments: cases)
    func refusedRefreshEndsTheSession(testCase: Case) async throws {
        let clock = TestClock()
        let (server, transport) = try server(refreshPath: testCase.refreshPath, status: testCase.status, body: testCase.body)
        let store = InMemoryTokenStore(credentials: expiredSession(at: clock.now))
        var configuration = testCase.configuration()
        configuration.now = { clock.now }
        let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
        let events = service.events()

        var errors: [SessionError] = []
        for _ in 0..<11 {
            do { try await call(service) } catch let error as SessionError { errors.append(error) }
            clock.advance(by: 1)
        }

        let refreshes = transport.requests.filter { $0.target == testCase.refreshPath }.count
        #expect(refreshes == 1)
        let reason = SignOutReason.refreshRefused(status: testCase.status, code: testCase.code)
        #expect(errors.first?.kind == .sessionEnded)
        #expect(errors.first?.reason == reason)
        #expect(errors.first?.isTransient == false)
        #expect(errors.dropFirst().allSatisfy { $0.kind == .notSignedIn }, "\(errors.map(\.kind))")
        #expect(errors.count == 11)
        #expect(try await store.load() == nil)
        try #require(errors.first?.kind == .sessionEnded)  // else no event comes to wait for
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(reason))
        #expect(errors.first?.description
            == "the session ended: the server refused the refresh request (HTTP \(testCase.status)\(testCase.code.map { " \($0)" } ?? ""))")
    }

    @Test("a 429 or 408 from the refresh call is transient: the credentials are kept and the next call tries again",
          arguments: [429, 408])
    func tooManyRequestsStaysTransient(status: Int) async throws {
        let clock = TestClock()
        let (server, transport) = try server(refreshPath: "/api/token/refresh/", status: status, body: #"{"detail":"slow down"}"#)
        let stored = expiredSession(at: clock.now)
        let store = InMemoryTokenStore(credentials: stored)
        var configuration = RepositoryService.Configuration.json(JSONTokenRefresh(path: "/api/token/refresh/"))
        configuration.now = { clock.now }
        configuration.sleep = { clock.advance(by: $0) }
        let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
        for _ in 0..<3 {
            let error = await #expect(throws: SessionError.self) { try await call(service) }
            #expect(error?.kind == .refreshFailed)
            #expect(error?.isTransient == true)
            clock.advance(by: 1)
        }
        // A 429 provably did not reach the token logic: each call tries three times (RefreshRetryPolicy);
        // a 408 may have, and this server forgives no lost response: once.
        #expect(transport.requests.count == (status == 429 ? 9 : 3))
        #expect(try await store.load() == stored)
    }

    @Test("the rule still names its own rejections: 401 invalid_refresh_token is refreshTokenRejected, not refreshRefused")
    func namedRejectionKeepsItsReason() async throws {
        let clock = TestClock()
        let (server, _) = try server(refreshPath: "/v1/auth/refresh", status: 401,
                                     body: #"{"error":{"code":"invalid_refresh_token","message":"unknown"}}"#)
        let store = InMemoryTokenStore(credentials: expiredSession(at: clock.now))
        let service = RepositoryService(server: server, tokenStore: store, configuration: .init(now: { clock.now }, refresher: .appAPI, revoker: .appAPI))
        let error = await #expect(throws: SessionError.self) { try await call(service) }
        #expect(error?.reason == .refreshTokenRejected(.invalidRefreshToken))
    }
}
