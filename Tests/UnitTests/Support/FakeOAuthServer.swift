import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService

/// Plays an RFC 6749 authorization server with a protected resource, scripted on the harness's
/// ``FakeTokenServer``: `/o/token/` (password and refresh_token grants, form-encoded, client
/// authenticated with HTTP Basic), `/o/revoke_token/` (RFC 7009) and `GET /api/me/`.
/// Refresh tokens rotate; a used one is `invalid_grant`. Access tokens are opaque unless
/// `jwtAccessTokens` is set.
final class FakeOAuthServer: Sendable {
    static let clientID = "sdk-client"
    static let clientSecret = "s3cret:with&odd=chars"

    struct State {
        var accessTokens: [String: (username: String, expires: Date)] = [:]
        var refreshTokens: [String: (username: String, used: Bool)] = [:]
        var serial = 0
        var lifetime: TimeInterval = 5
        var sendsExpiresIn = true
        var jwtAccessTokens = false
        var rotates = true
        var invalidGrantStatus = 400
        var failRefreshesWith500 = false
        var refreshCalls = 0
        var revokedTokens: [String] = []
        var unauthorized = 0
        var refusesEveryAccessToken = false
    }

    let state = TestMutex(State())
    let clock: TestClock
    let server: Server
    /// The routes below, on the harness's one scriptable fake.
    let fake = FakeTokenServer()
    private let transport: TestTransport

    init(clock: TestClock) throws {
        self.clock = clock
        transport = TestTransport(serving: fake)
        server = try Server(baseURL: "http://127.0.0.1:8000", transport: transport)
        // The routes hold the state and the clock, not this value.
        let state = state
        fake.route(.post, "/o/token/") { request in Self.token(request, state: state, now: clock.now) }
        fake.route(.post, "/o/revoke_token/") { request in
            let form = request.form
            let token = form["token"] ?? ""
            state.withLock { state in
                state.revokedTokens.append(form["token_type_hint"] ?? "")
                state.accessTokens[token] = nil
                state.refreshTokens[token] = nil
            }
            return .status(200)
        }
        fake.route(.get, "/api/me/") { request in
            let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            let now = clock.now
            return state.withLock { state in
                guard !state.refusesEveryAccessToken, let entry = state.accessTokens[token], entry.expires > now else {
                    state.unauthorized += 1
                    return .json(401, #"{"detail":"Authentication credentials were not provided."}"#,
                                 headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#])
                }
                return .json(200, #"{"username":"\#(entry.username)"}"#)
            }
        }
    }

    var requests: [HTTPRequest] { transport.requests }
    var refreshCalls: Int { state.withLock { $0.refreshCalls } }

    func configure(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    private static func token(_ request: FakeTokenServer.Request, state: TestMutex<State>, now: Date) -> FakeTokenServer.Reply {
        guard request.header("Authorization") == Self.basicAuthorization else {
            return .json(401, #"{"error":"invalid_client"}"#)
        }
        let form = request.form
        return state.withLock { state in
            switch form["grant_type"] {
            case "password":
                guard form["password"] == "correct horse" else {
                    return .json(400, #"{"error":"invalid_grant","error_description":"Invalid credentials given."}"#)
                }
                return .json(200, issue(&state, username: form["username"] ?? "", now: now))
            case "refresh_token":
                state.refreshCalls += 1
                if state.failRefreshesWith500 { return .json(500, "<h1>Server Error (500)</h1>") }
                let presented = form["refresh_token"] ?? ""
                guard let entry = state.refreshTokens[presented], !entry.used else {
                    return .json(state.invalidGrantStatus, #"{"error":"invalid_grant"}"#)
                }
                if state.rotates { state.refreshTokens[presented]?.used = true }
                return .json(200, issue(&state, username: entry.username, now: now))
            default:
                return .json(400, #"{"error":"unsupported_grant_type"}"#)
            }
        }
    }

    private static func issue(_ state: inout State, username: String, now: Date) -> String {
        state.serial += 1
        let access: String
        if state.jwtAccessTokens {
            let claims = #"{"sub":"\#(username)","iat":\#(Int(now.timeIntervalSince1970)),"exp":\#(Int(now.timeIntervalSince1970 + state.lifetime))}"#
            access = FakeTokenServer.jwt(header: "eyJhbGciOiJIUzI1NiJ9", claims: claims, signature: "c2lnbmF0dXJl\(state.serial)")
        } else {
            access = "opaque-access-\(state.serial)"
        }
        let refresh = "opaque-refresh-\(state.serial)"
        state.accessTokens[access] = (username, now.addingTimeInterval(state.lifetime))
        state.refreshTokens[refresh] = (username, false)
        var reply = #"{"access_token":"\#(access)","token_type":"Bearer","scope":"read write""#
        if state.sendsExpiresIn { reply += #","expires_in":\#(Int(state.lifetime))"# }
        if state.rotates || state.serial == 1 { reply += #","refresh_token":"\#(refresh)""# }
        return reply + "}"
    }

    static var basicAuthorization: String {
        "Basic " + Data("sdk-client:s3cret%3Awith%26odd%3Dchars".utf8).base64EncodedString()
    }

    /// The form fields of a request body.
    static func form(of request: HTTPRequest) -> [String: String] {
        FakeTokenServer.Request(method: request.method.rawValue, target: request.target, body: request.body ?? Data()).form
    }
}

/// `GET /api/me/` of the fake OAuth server.
enum ResourceEndpoint: Endpoint {
    case me
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/api/me/" }
}

/// What `/api/me/` returns.
struct ResourceOwner: Decodable, Sendable, Equatable {
    let username: String
}
