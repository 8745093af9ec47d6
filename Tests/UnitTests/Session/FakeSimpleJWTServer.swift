import AppSDKTesting
import Foundation
import NetworkService

/// Plays a Django REST framework server with djangorestframework-simplejwt, the JSON server
/// of the README's example, on the test's clock:
///
/// - `POST /api/token/` `{"username", "password"}` → `{"access", "refresh"}`, or 401
///   `{"detail", "code": "no_active_account"}`;
/// - `POST /api/token/refresh/` `{"refresh"}` → `{"access", "refresh"}` (rotated; the old one
///   is blacklisted: 401 `token_not_valid`), or 400 `{"refresh": ["This field is required."]}`;
/// - `GET /api/profile/` with the access token → `{"username"}`, or 401 `token_not_valid`.
///
/// Access tokens are JWTs as simplejwt writes them: `exp` and `iat` in whole seconds
/// (truncated, as PyJWT does), the user in `user_id`, no `sub`. A token is refused from its
/// `exp` on, by this server's clock. It serves a ``TestTransport`` (the test's clock, with a
/// latency per request) or a ``LoopbackHTTPServer`` (the system clock).
final class FakeSimpleJWTServer: Sendable {
    static let username = "kim"
    static let password = "correct horse"

    struct State {
        var lifetime = 5
        /// Simulated time each request takes to arrive (the test clock moves by it).
        var latency: TimeInterval = 0
        /// When set, every refresh is answered so, whatever it presents.
        var refreshAnswer: (status: Int, body: String)?
        var accessTokens: [String: Int] = [:]  // token → exp
        var refreshTokens: [String: Bool] = [:]  // token → blacklisted
        var serial = 0
        var signIns = 0
        var refreshRequests = 0
        var unauthorized = 0
        var profileRequests = 0
    }

    let state = TestMutex(State())
    private let now: @Sendable () -> Date
    private let advance: (@Sendable (TimeInterval) -> Void)?

    /// A server on `clock`, moved by the latency of each request.
    init(clock: TestClock) {
        now = { clock.now }
        advance = { clock.advance(by: $0) }
    }

    /// A server on the system clock.
    init() {
        now = { Date() }
        advance = nil
    }

    var refreshRequests: Int { state.withLock { $0.refreshRequests } }
    var unauthorized: Int { state.withLock { $0.unauthorized } }

    func configure(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// A test transport that this server answers.
    func transport() -> TestTransport {
        TestTransport { [self] request in
            let (status, headers, body) = handle(method: request.method.rawValue, target: request.target,
                                                 authorization: request.value(forHeaderField: "Authorization"),
                                                 body: request.body ?? Data())
            return TestTransport.Reply(status: status, headers: headers, body: body)
        }
    }

    /// Answers a request of a ``LoopbackHTTPServer``.
    func reply(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        let (status, headers, body) = handle(method: request.method, target: request.target,
                                             authorization: request.header("Authorization"), body: request.body)
        return .respond(status: status, headers: headers, body: body)
    }

    private func handle(method: String, target: String, authorization: String?, body: Data)
        -> (Int, [String: String], Data) {
        let latency = state.withLock { $0.latency }
        if latency > 0 { advance?(latency) }
        let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let seconds = Int(now().timeIntervalSince1970)  // PyJWT truncates
        let (status, text): (Int, String) = state.withLock { state in
            switch (method, target) {
            case ("POST", "/api/token/"):
                guard fields["username"] as? String == Self.username, fields["password"] as? String == Self.password else {
                    return (401, #"{"detail":"No active account found with the given credentials","code":"no_active_account"}"#)
                }
                state.signIns += 1
                return (200, issue(&state, at: seconds))
            case ("POST", "/api/token/refresh/"):
                state.refreshRequests += 1
                if let answer = state.refreshAnswer { return answer }
                guard let presented = fields["refresh"] as? String else {
                    return (400, #"{"refresh":["This field is required."]}"#)
                }
                guard state.refreshTokens[presented] == false else {
                    return (401, #"{"detail":"Token is blacklisted","code":"token_not_valid"}"#)
                }
                state.refreshTokens[presented] = true
                return (200, issue(&state, at: seconds))
            case ("GET", "/api/profile/"):
                state.profileRequests += 1
                let token = authorization.map { $0.replacingOccurrences(of: "Bearer ", with: "") } ?? ""
                // PyJWT: expired when exp <= now.
                guard let exp = state.accessTokens[token], now().timeIntervalSince1970 < Double(exp) else {
                    state.unauthorized += 1
                    return (401, #"{"detail":"Given token not valid for any token type","code":"token_not_valid","#
                        + #""messages":[{"token_class":"AccessToken","token_type":"access","message":"Token is invalid or expired"}]}"#)
                }
                return (200, #"{"username":"\#(Self.username)"}"#)
            default:
                return (404, #"{"detail":"Not found."}"#)
            }
        }
        var headers = ["Content-Type": "application/json"]
        if status == 401 && target == "/api/profile/" { headers["WWW-Authenticate"] = #"Bearer realm="api""# }
        return (status, headers, Data(text.utf8))
    }

    /// New tokens issued at `seconds` (whole seconds since 1970, as PyJWT writes them).
    private func issue(_ state: inout State, at seconds: Int) -> String {
        state.serial += 1
        let exp = seconds + state.lifetime
        let claims = #"{"token_type":"access","exp":\#(exp),"iat":\#(seconds),"jti":"jti\#(state.serial)","user_id":1}"#
        let access = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + Self.base64URL(claims) + ".c2lnbmF0dXJl\(state.serial)"
        let refresh = "refresh-\(state.serial)-\(UUID().uuidString)"
        state.accessTokens[access] = exp
        state.refreshTokens[refresh] = false
        return #"{"access":"\#(access)","refresh":"\#(refresh)"}"#
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}

/// `GET /api/profile/` of the fake simplejwt server (what the README example's
/// `ProfileEndpoint` sends), answered with a ``ResourceOwner``.
enum SimpleJWTRoute: Endpoint {
    case profile
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/api/profile/" }
}
