import AppSDKHarness
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
    /// The routes below, on the harness's one scriptable fake.
    let fake = FakeTokenServer()

    /// A server on `clock`, moved by the latency of each request.
    convenience init(clock: TestClock) {
        self.init(now: { clock.now }, advance: { clock.advance(by: $0) })
    }

    /// A server on the system clock.
    convenience init() {
        self.init(now: { Date() }, advance: nil)
    }

    private init(now: @escaping @Sendable () -> Date, advance: (@Sendable (TimeInterval) -> Void)?) {
        // The routes hold the state and the clock, not this value: a transport made by
        // `transport()` keeps answering once the value is gone.
        let state = state
        fake.route(.post, "/api/token/") { request in
            let fields = Self.arrive(request, state: state, advance: advance)
            let seconds = Int(now().timeIntervalSince1970)  // PyJWT truncates
            return state.withLock { state in
                guard fields["username"] as? String == Self.username, fields["password"] as? String == Self.password else {
                    return .json(401, #"{"detail":"No active account found with the given credentials","code":"no_active_account"}"#)
                }
                state.signIns += 1
                return .json(200, Self.issue(&state, at: seconds))
            }
        }
        fake.route(.post, "/api/token/refresh/") { request in
            let fields = Self.arrive(request, state: state, advance: advance)
            let seconds = Int(now().timeIntervalSince1970)
            return state.withLock { state in
                state.refreshRequests += 1
                if let answer = state.refreshAnswer { return .json(answer.status, answer.body) }
                guard let presented = fields["refresh"] as? String else {
                    return .json(400, #"{"refresh":["This field is required."]}"#)
                }
                guard state.refreshTokens[presented] == false else {
                    return .json(401, #"{"detail":"Token is blacklisted","code":"token_not_valid"}"#)
                }
                state.refreshTokens[presented] = true
                return .json(200, Self.issue(&state, at: seconds))
            }
        }
        fake.route(.get, "/api/profile/") { request in
            _ = Self.arrive(request, state: state, advance: advance)
            let token = request.bearerToken ?? ""
            return state.withLock { state in
                state.profileRequests += 1
                // PyJWT: expired when exp <= now.
                guard let exp = state.accessTokens[token], now().timeIntervalSince1970 < Double(exp) else {
                    state.unauthorized += 1
                    return .json(401, #"{"detail":"Given token not valid for any token type","code":"token_not_valid","#
                        + #""messages":[{"token_class":"AccessToken","token_type":"access","message":"Token is invalid or expired"}]}"#,
                        headers: ["WWW-Authenticate": #"Bearer realm="api""#])
                }
                return .json(200, #"{"username":"\#(Self.username)"}"#)
            }
        }
    }

    var refreshRequests: Int { state.withLock { $0.refreshRequests } }
    var unauthorized: Int { state.withLock { $0.unauthorized } }

    func configure(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// A test transport that this server answers.
    func transport() -> TestTransport { TestTransport(serving: fake) }

    /// Answers a request of a ``LoopbackHTTPServer``.
    func reply(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        fake.answerNow(FakeTokenServer.Request(loopback: request)).loopback
    }

    /// The request's latency passes on the clock; its JSON body's fields.
    private static func arrive(_ request: FakeTokenServer.Request, state: TestMutex<State>,
                               advance: (@Sendable (TimeInterval) -> Void)?) -> [String: Any] {
        let latency = state.withLock { $0.latency }
        if latency > 0 { advance?(latency) }
        return request.json ?? [:]
    }

    /// New tokens issued at `seconds` (whole seconds since 1970, as PyJWT writes them).
    private static func issue(_ state: inout State, at seconds: Int) -> String {
        state.serial += 1
        let exp = seconds + state.lifetime
        let claims = #"{"token_type":"access","exp":\#(exp),"iat":\#(seconds),"jti":"jti\#(state.serial)","user_id":1}"#
        let access = FakeTokenServer.jwt(header: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", claims: claims,
                                         signature: "c2lnbmF0dXJl\(state.serial)")
        let refresh = "refresh-\(state.serial)-\(UUID().uuidString)"
        state.accessTokens[access] = exp
        state.refreshTokens[refresh] = false
        return #"{"access":"\#(access)","refresh":"\#(refresh)"}"#
    }
}

/// `GET /api/profile/` of the fake simplejwt server (what the README example's
/// `ProfileEndpoint` sends), answered with a ``ResourceOwner``.
enum SimpleJWTRoute: Endpoint {
    case profile
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/api/profile/" }
}
