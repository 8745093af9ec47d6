import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn

/// Plays an OpenID Connect provider and an API on two origins, scripted on the harness's
/// ``FakeTokenServer`` (its routes: ``Routes``): discovery at
/// `{issuer}/.well-known/openid-configuration`, the token endpoint (authorization code with PKCE
/// S256, refresh_token with rotation, the device code, client credentials), the device
/// authorization endpoint, userinfo, revocation, all on the issuer's origin; and
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
        var discoveryOverride: FakeTokenServer.Reply?
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

    static let apiOrigin = "https://api.example.test"

    let issuer: URL
    let clock: TestClock
    /// The routes (``Routes``), on the harness's one scriptable fake.
    let fake = FakeTokenServer(notFound: .json(404, #"{"error":"not_found"}"#))
    let transport: TestTransport
    let api: Server
    let state: TestMutex<State>

    /// A provider at a fresh issuer (discovery is cached per process, so each test has its own).
    init(clock: TestClock = TestClock(), issuerPath: String = "/o") throws {
        self.clock = clock
        let host = "auth-\(UUID().uuidString.prefix(8).lowercased()).example.test"
        let base = "https://\(host)\(issuerPath)"
        issuer = URL(string: base)!
        transport = TestTransport(serving: fake)
        api = try Server(baseURL: Self.apiOrigin, transport: transport)
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
        Routes(issuer: issuer, clock: clock, state: state).install(on: fake)
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
        FakeTokenServer.Request(method: request.method.rawValue, target: request.target, body: request.body ?? Data()).form
    }

    static let confidentialAuthorization = "Basic " + Data("\(confidentialClientID):\(clientSecret)".utf8).base64EncodedString()
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
