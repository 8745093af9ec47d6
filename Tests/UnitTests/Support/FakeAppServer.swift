import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Plays the app's server for RepositoryService tests through a ``TestTransport``: it
/// issues and rotates tokens, checks bearer tokens, and can be told to misbehave.
final class FakeAppServer: Sendable {
    enum RefreshBehaviour: Sendable {
        case succeed
        case reject(code: String)
        case timeout
        case dropConnection
        case serverError
        case html
        /// 200 with the shape of tokens, one of them empty.
        case emptyAccessToken
        case emptyRefreshToken
        case hang(Gate)
    }

    struct State {
        var validAccessTokens: [String: String] = [:]
        var refreshTokens: [String: (memberID: String, used: Bool)] = [:]
        var refreshBehaviour: RefreshBehaviour = .succeed
        var alwaysUnauthorized = false
        var refreshRequests = 0
        var unauthorizedResponses = 0
        var apiRequests: [String] = []
        var serial = 0
        var accessTokenLifetime = 900
        var signOutRequests = 0
        /// When set, an access token is refused from its expiry on (by the fake's clock).
        var enforcesExpiry = false
        var accessTokenExpiry: [String: Date] = [:]
        /// Simulated time each request takes to reach the fake (the clock moves by it).
        var latency: TimeInterval = 0
    }

    static let memberID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    static let otherMemberID = "7A9619FF-8B86-D011-B42D-00C04FC964FF"

    let state = TestMutex(State())
    let clock: TestClock
    let server: Server
    private let transport: TestTransport

    init(clock: TestClock) throws {
        self.clock = clock
        transport = TestTransport()
        server = try Server(baseURL: "https://api.example.com", transport: transport)
        transport.serve { [weak self] request in
            guard let self else { throw TransportError(.cannotConnect) }
            return try await self.handle(request)
        }
    }

    /// A service on this server whose clock is the fake's.
    func service(store: any TokenStore) -> RepositoryService {
        let clock = clock
        return RepositoryService(server: server, tokenStore: store, configuration: .init(now: { clock.now }, refresher: .appAPI, revoker: .appAPI))
    }

    var refreshRequests: Int { state.withLock { $0.refreshRequests } }
    var signOutRequests: Int { state.withLock { $0.signOutRequests } }
    var unauthorizedResponses: Int { state.withLock { $0.unauthorizedResponses } }
    var apiRequests: [String] { state.withLock { $0.apiRequests } }
    var requests: [HTTPRequest] { transport.requests }

    func setRefreshBehaviour(_ behaviour: RefreshBehaviour) {
        state.withLock { $0.refreshBehaviour = behaviour }
    }

    func setAlwaysUnauthorized(_ value: Bool) {
        state.withLock { $0.alwaysUnauthorized = value }
    }

    /// Makes every access token issued so far stop working.
    func expireAllAccessTokens() {
        state.withLock { $0.validAccessTokens.removeAll() }
    }

    /// Credentials of a fresh session, as if the member had just signed in.
    func issueCredentials(memberID: String = FakeAppServer.memberID, expiresIn: TimeInterval = 900) -> Credentials {
        let (access, refresh) = state.withLock { issue(&$0, memberID: memberID, lifetime: expiresIn) }
        return Credentials(accessToken: AccessToken(access), refreshToken: refresh,
                           accessTokenExpiresAt: clock.now.addingTimeInterval(expiresIn), accountID: memberID)
    }

    private func issue(_ state: inout State, memberID: String, lifetime: TimeInterval? = nil) -> (String, String) {
        state.serial += 1
        let access = "access-\(state.serial)-\(UUID().uuidString)"
        let refresh = "refresh-\(state.serial)-\(UUID().uuidString)"
        state.validAccessTokens[access] = memberID
        state.accessTokenExpiry[access] = clock.now.addingTimeInterval(lifetime ?? TimeInterval(state.accessTokenLifetime))
        state.refreshTokens[refresh] = (memberID, false)
        return (access, refresh)
    }

    private func tokensJSON(access: String, refresh: String, lifetime: Int) -> String {
        let expiresAt = JSONCoding.format(clock.now.addingTimeInterval(TimeInterval(lifetime)))
        return #"{"accessToken":"\#(access)","refreshToken":"\#(refresh)","tokenType":"Bearer","expiresIn":\#(lifetime),"expiresAt":"\#(expiresAt)"}"#
    }

    private func memberJSON(_ id: String) -> String {
        #"{"id":"\#(id)","nickname":"kim","email":"kim@example.com","role":"member","createdAt":"2026-11-22T10:00:00Z"}"#
    }

    private static let unauthorized = TestTransport.Reply.json(
        401, #"{"error":{"code":"token_expired","message":"the access token has expired"}}"#,
        headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])

    private func handle(_ request: HTTPRequest) async throws -> TestTransport.Reply {
        let latency = state.withLock { $0.latency }
        if latency > 0 { clock.advance(by: latency) }
        let target = request.target
        switch (request.method, target) {
        case (.post, "/v1/auth/refresh"):
            return try await refresh(request)
        case (.post, "/v1/auth/sign-in"), (.post, "/v1/auth/anonymous"):
            let body = request.jsonBody
            let memberID = (body?["email"] as? String) == "other@example.com" ? Self.otherMemberID : Self.memberID
            let (access, refresh, lifetime) = state.withLock { state in
                let (a, r) = issue(&state, memberID: memberID)
                return (a, r, state.accessTokenLifetime)
            }
            return .json(200, #"{"member":\#(memberJSON(memberID)),"tokens":\#(tokensJSON(access: access, refresh: refresh, lifetime: lifetime))}"#)
        default:
            break
        }
        let token = request.value(forHeaderField: "Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        let authorized = state.withLock { state -> Bool in
            state.apiRequests.append("\(request.method.rawValue) \(target)")
            let expired = state.enforcesExpiry && state.accessTokenExpiry[token].map { clock.now >= $0 } ?? false
            let ok = !state.alwaysUnauthorized && state.validAccessTokens[token] != nil && !expired
            if !ok { state.unauthorizedResponses += 1 }
            return ok
        }
        guard authorized else { return Self.unauthorized }
        switch (request.method, target) {
        case (.get, "/v1/members/me"):
            let memberID = state.withLock { $0.validAccessTokens[token] } ?? Self.memberID
            return .json(200, memberJSON(memberID))
        case (.get, "/v1/posts/403"):
            return .json(403, #"{"error":{"code":"forbidden","message":"not yours"}}"#)
        case (.post, "/v1/auth/sign-out"):
            state.withLock { $0.signOutRequests += 1 }
            return .status(204)
        case (.delete, "/v1/members/me"):
            // The account and every session of it are gone.
            state.withLock { state in
                let memberID = state.validAccessTokens[token]
                state.validAccessTokens = state.validAccessTokens.filter { $0.value != memberID }
                state.refreshTokens = state.refreshTokens.filter { $0.value.memberID != memberID }
            }
            return .status(204)
        default:
            return .json(404, #"{"error":{"code":"not_found","message":"no route"}}"#)
        }
    }

    private func refresh(_ request: HTTPRequest) async throws -> TestTransport.Reply {
        let behaviour = state.withLock { state in
            state.refreshRequests += 1
            return state.refreshBehaviour
        }
        switch behaviour {
        case .succeed: break
        case let .reject(code): return .json(401, #"{"error":{"code":"\#(code)","message":"no"}}"#)
        case .timeout: throw TransportError(.timedOut)
        case .dropConnection: throw TransportError(.connectionLost)
        case .serverError: return .json(500, #"{"error":{"code":"internal","message":"boom"}}"#)
        case .html: return .json(200, "<html><body>Welcome to the hotel Wi-Fi</body></html>")
        case .emptyAccessToken:
            return .json(200, #"{"tokens":\#(tokensJSON(access: "", refresh: "r-unused", lifetime: 900))}"#)
        case .emptyRefreshToken:
            return .json(200, #"{"tokens":\#(tokensJSON(access: "a-unused", refresh: "", lifetime: 900))}"#)
        case let .hang(gate): await gate.wait()
        }
        let presented = request.jsonBody?["refreshToken"] as? String ?? ""
        return state.withLock { state in
            guard let entry = state.refreshTokens[presented] else {
                return .json(401, #"{"error":{"code":"invalid_refresh_token","message":"unknown"}}"#)
            }
            guard !entry.used else {
                return .json(401, #"{"error":{"code":"refresh_token_reused","message":"reused"}}"#)
            }
            state.refreshTokens[presented]?.used = true
            let (access, refresh) = issue(&state, memberID: entry.memberID)
            return .json(200, #"{"tokens":\#(tokensJSON(access: access, refresh: refresh, lifetime: state.accessTokenLifetime))}"#)
        }
    }
}
