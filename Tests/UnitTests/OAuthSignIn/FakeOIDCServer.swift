import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn

/// Plays an OpenID Connect provider and an API on two origins, through a ``TestTransport``:
/// discovery at `{issuer}/.well-known/openid-configuration`, the token endpoint (authorization
/// code with PKCE S256, refresh_token with rotation, the device code, client credentials),
/// the device authorization endpoint, userinfo, revocation, all on the issuer's origin; and
/// `GET https://api.example.test/me` on the API's. The test plays the browser and the user:
/// ``approve(_:)`` turns an authorization URL into the callback URL the server would redirect to.
/// Every value a test could leak is in ``secrets``.
final class FakeOIDCServer: Sendable {
    static let clientID = "cli-public"
    static let confidentialClientID = "ci-job"
    static let clientSecret = "client-secret-Q7w9"
    static let userCode = "WDJB-MJHT"

    struct State {
        var document: [String: Any]
        var discoveryOverride: TestTransport.Reply?
        var openIDConfigurationMissing = false
        var lifetime: TimeInterval = 300
        var serial = 0
        var codes: [String: (challenge: String, redirectURI: String, nonce: String?, clientID: String)] = [:]
        var accessTokens: [String: (subject: String, expires: Date)] = [:]
        var refreshTokens: [String: Bool] = [:]  // token: used
        var idTokenClaims: @Sendable ([String: Any]) -> [String: Any] = { $0 }
        var sendsIDToken = true
        /// Token answers carry a `Date` header this far from the fake's clock; `nil`: none.
        var dateHeaderOffset: TimeInterval?
        var deviceInterval: Int? = 5
        var deviceExpiresIn: Int? = 600
        var devicePolls: [String] = []   // answers, in order: authorization_pending, slow_down, access_denied, expired_token, approve
        var devicePollTimes: [Date] = []
        var deviceCode = ""
        var tokenRequests = 0
        var clientCredentialsGrants = 0
        var revoked: [String] = []
        var secrets: [String] = [FakeOIDCServer.clientSecret]
        var apiUnauthorized = 0
        /// Each token request's way to the server and back, on the clock: half passes before
        /// it is answered, half after.
        var tokenLatency: TimeInterval = 0
    }

    let issuer: URL
    let clock: TestClock
    let transport = TestTransport()
    let api: Server
    let state: TestMutex<State>

    /// A provider at a fresh issuer (discovery is cached per process, so each test has its own).
    init(clock: TestClock = TestClock(), issuerPath: String = "/o") throws {
        self.clock = clock
        let host = "auth-\(UUID().uuidString.prefix(8).lowercased()).example.test"
        let base = "https://\(host)\(issuerPath)"
        issuer = URL(string: base)!
        api = try Server(baseURL: "https://api.example.test", transport: transport)
        state = TestMutex(State(document: [
            "issuer": base,
            "authorization_endpoint": base + "/authorize/",
            "token_endpoint": base + "/token/",
            "device_authorization_endpoint": base + "/device-authorization/",
            "revocation_endpoint": base + "/revoke_token/",
            "userinfo_endpoint": base + "/userinfo/",
            "jwks_uri": base + "/.well-known/jwks.json",
            "code_challenge_methods_supported": ["plain", "S256"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials",
                                      "urn:ietf:params:oauth:grant-type:device_code"],
            "scopes_supported": ["openid", "profile", "read"],
            "response_types_supported": ["code"],
        ]))
        transport.serve { [weak self] request in
            guard let self else { throw TransportError(.cannotConnect) }
            return self.handle(request)
        }
    }

    var requests: [HTTPRequest] { transport.requests }
    var secrets: [String] { state.withLock { $0.secrets } }

    func configure(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// A provider discovered from this server.
    func provider(clientID: String = FakeOIDCServer.clientID, clientSecret: String? = nil) async throws -> OAuthProvider {
        var provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID, clientSecret: clientSecret,
                                                        transport: transport)
        let clock = clock
        provider.clock = SignInClock(now: { clock.now }, sleep: { duration in
            try Task.checkCancellation()
            let (seconds, attoseconds) = duration.components
            clock.advance(by: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
            await Task.yield()
        })
        return provider
    }

    // MARK: Playing the user

    /// The user approves `authorizationURL`: the callback URL the server redirects the browser to.
    func approve(_ authorizationURL: URL) -> URL {
        let query = Self.query(of: authorizationURL)
        let code = state.withLock { state -> String in
            state.serial += 1
            let code = "authorization-code-\(state.serial)-\(UUID().uuidString)"
            state.codes[code] = (query["code_challenge"] ?? "", query["redirect_uri"] ?? "", query["nonce"], query["client_id"] ?? "")
            state.secrets.append(code)
            return code
        }
        return Self.callback(query["redirect_uri"] ?? "", ["code": code, "state": query["state"] ?? ""])
    }

    /// The user declines: the callback URL with `error=access_denied`.
    func deny(_ authorizationURL: URL) -> URL {
        let query = Self.query(of: authorizationURL)
        return Self.callback(query["redirect_uri"] ?? "", ["error": "access_denied", "error_description": "The user said no",
                                                          "state": query["state"] ?? ""])
    }

    static func callback(_ redirectURI: String, _ items: [String: String]) -> URL {
        var components = URLComponents(string: redirectURI)!
        components.queryItems = items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    static func query(of url: URL) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { values[item.name] = item.value }
        return values
    }

    static func form(of request: HTTPRequest) -> [String: String] {
        guard let body = request.body, let text = String(data: body, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            values[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return values
    }

    static let confidentialAuthorization = "Basic " + Data("\(confidentialClientID):\(clientSecret)".utf8).base64EncodedString()

    /// An unsigned JWT with `claims` (the signature part is junk: the SDK does not verify it).
    static func jwt(_ claims: [String: Any]) -> String {
        let payload = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ." + PKCE.base64URL(Array(payload)) + ".c2lnbmF0dXJl"
    }

    // MARK: Serving

    private func handle(_ request: HTTPRequest) -> TestTransport.Reply {
        let url = request.url.absoluteString
        let base = issuer.absoluteString
        if url.hasPrefix("https://api.example.test") { return api(request) }
        let origin = issuer.absoluteString.replacingOccurrences(of: issuer.path, with: "")
        switch (request.method, url) {
        case (.get, base + "/.well-known/openid-configuration"):
            return state.withLock { state in
                if state.openIDConfigurationMissing { return .status(404) }
                return state.discoveryOverride ?? Self.json(200, state.document)
            }
        case (.get, origin + "/.well-known/oauth-authorization-server" + issuer.path):
            return state.withLock { state in
                state.openIDConfigurationMissing ? (state.discoveryOverride ?? Self.json(200, state.document)) : .status(404)
            }
        case (.post, base + "/token/"):
            return token(request)
        case (.post, base + "/device-authorization/"):
            return state.withLock { state in
                state.deviceCode = "device-code-secret-\(UUID().uuidString)"
                state.secrets.append(state.deviceCode)
                var reply: [String: Any] = ["device_code": state.deviceCode, "user_code": Self.userCode,
                                            "verification_uri": base + "/device/",
                                            "verification_uri_complete": base + "/device/?user_code=\(Self.userCode)"]
                if let interval = state.deviceInterval { reply["interval"] = interval }
                if let expiresIn = state.deviceExpiresIn { reply["expires_in"] = expiresIn }
                return Self.json(200, reply)
            }
        case (.post, base + "/revoke_token/"):
            let form = Self.form(of: request)
            state.withLock { $0.revoked.append(form["token"] ?? "") }
            return .status(200)
        case (.get, base + "/userinfo/"):
            return state.withLock { state in
                guard let subject = self.subject(of: request, &state) else {
                    return TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
                }
                return Self.json(200, ["sub": subject, "email": "kim@example.test", "email_verified": true])
            }
        default:
            return .json(404, #"{"error":"not_found"}"#)
        }
    }

    private func subject(of request: HTTPRequest, _ state: inout State) -> String? {
        guard let header = request.value(forHeaderField: "Authorization"), header.hasPrefix("Bearer "),
              let token = state.accessTokens[String(header.dropFirst(7))], token.expires > clock.now else { return nil }
        return token.subject
    }

    private func api(_ request: HTTPRequest) -> TestTransport.Reply {
        state.withLock { state in
            guard let subject = subject(of: request, &state) else {
                state.apiUnauthorized += 1
                return TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            }
            return Self.json(200, ["username": subject])
        }
    }

    private func token(_ request: HTTPRequest) -> TestTransport.Reply {
        let latency = state.withLock { $0.tokenLatency }
        clock.advance(by: latency / 2)
        defer { clock.advance(by: latency / 2) }
        let form = Self.form(of: request)
        return state.withLock { state in
            state.tokenRequests += 1
            switch form["grant_type"] {
            case "authorization_code":
                guard let code = form["code"], let issued = state.codes.removeValue(forKey: code),
                      form["client_id"] == issued.clientID, form["redirect_uri"] == issued.redirectURI,
                      let verifier = form["code_verifier"], PKCE.challenge(of: verifier) == issued.challenge else {
                    return .json(400, #"{"error":"invalid_grant","error_description":"Invalid code or verifier"}"#)
                }
                return issue(&state, subject: "user-42", clientID: issued.clientID, nonce: issued.nonce, refresh: true)
            case "refresh_token":
                guard let token = form["refresh_token"], state.refreshTokens[token] == false else {
                    return .json(400, #"{"error":"invalid_grant"}"#)
                }
                state.refreshTokens[token] = true
                return issue(&state, subject: "user-42", clientID: Self.clientID, nonce: nil, refresh: true, idToken: false)
            case "urn:ietf:params:oauth:grant-type:device_code":
                state.devicePollTimes.append(clock.now)
                guard form["device_code"] == state.deviceCode else { return .json(400, #"{"error":"invalid_grant"}"#) }
                let answer = state.devicePolls.isEmpty ? "authorization_pending" : state.devicePolls.removeFirst()
                guard answer == "approve" else { return .json(400, #"{"error":"\#(answer)"}"#) }
                return issue(&state, subject: "user-42", clientID: Self.clientID, nonce: nil, refresh: true)
            case "client_credentials":
                guard request.value(forHeaderField: "Authorization") == Self.confidentialAuthorization else {
                    return .json(401, #"{"error":"invalid_client"}"#)
                }
                state.clientCredentialsGrants += 1
                return issue(&state, subject: Self.confidentialClientID, clientID: Self.confidentialClientID, nonce: nil,
                             refresh: false, idToken: false)
            default:
                return .json(400, #"{"error":"unsupported_grant_type"}"#)
            }
        }
    }

    private func issue(_ state: inout State, subject: String, clientID: String, nonce: String?, refresh: Bool,
                       idToken: Bool = true) -> TestTransport.Reply {
        state.serial += 1
        let access = "access-token-\(state.serial)-\(UUID().uuidString)"
        state.accessTokens[access] = (subject, clock.now.addingTimeInterval(state.lifetime))
        state.secrets.append(access)
        var reply: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": Int(state.lifetime),
                                    "scope": "openid profile"]
        if refresh {
            let token = "refresh-token-\(state.serial)-\(UUID().uuidString)"
            state.refreshTokens[token] = false
            state.secrets.append(token)
            reply["refresh_token"] = token
        }
        if idToken, state.sendsIDToken {
            let now = clock.now.timeIntervalSince1970
            var claims: [String: Any] = ["iss": issuer.absoluteString, "aud": clientID, "sub": subject,
                                         "exp": Int(now) + 600, "iat": Int(now), "email": "kim@example.test"]
            if let nonce { claims["nonce"] = nonce }
            let token = Self.jwt(state.idTokenClaims(claims))
            state.secrets.append(token)
            reply["id_token"] = token
        }
        var answer = Self.json(200, reply)
        if let offset = state.dateHeaderOffset {
            answer.headers["Date"] = Self.httpDate(clock.now.addingTimeInterval(offset))
        }
        return answer
    }

    /// An IMF-fixdate, as a `Date` header writes it.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func json(_ status: Int, _ object: [String: Any]) -> TestTransport.Reply {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return TestTransport.Reply(status: status, headers: ["Content-Type": "application/json"], body: data)
    }
}

/// `GET /me` of the fake API.
struct FakeMeEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/me" }
}

/// What the fake API's `/me` answers.
struct FakeMe: Decodable, Sendable, Equatable {
    let username: String
}
