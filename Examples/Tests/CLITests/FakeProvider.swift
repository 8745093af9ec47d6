import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import TokenStore
import Testing

/// A small OAuth 2.0 provider on 127.0.0.1 for `app-oauth`'s tests that need no real server,
/// scripted on the harness's ``FakeTokenServer``: discovery, a token endpoint (client
/// credentials, the device grant, refresh), device authorization, revocation and userinfo. Its
/// tokens start with its ``name`` (`A-access-1`), so a test can tell which provider issued a
/// stored token. ``settings`` make it slow, wrong or hostile where a test needs it.
final class FakeProvider: Sendable {
    /// The client secret its clients use (it accepts any).
    static let clientSecret = "fake-client-secret-7"

    /// What the provider does; change it with ``configure(_:)`` while it runs.
    struct Settings: Sendable {
        /// The issuer its discovery document names (`nil`: its own URL).
        var namedIssuer: String?
        /// Seconds the discovery document takes.
        var discoveryDelay: TimeInterval = 0
        /// Seconds a revocation takes.
        var revocationDelay: TimeInterval = 0
        /// The device grant's user code.
        var userCode = "WDJB-MJHT"
        /// The device grant's verification URI (`nil`: its own `/activate`).
        var verificationURI: String?
        /// The userinfo endpoint's answer (a JSON object).
        var userinfo = #"{"sub":"alice","name":"Alice"}"#
        /// The access token to issue instead of `NAME-access-N` (a JWT, say).
        var accessToken: String?
        /// `expires_in` of the tokens it issues (`nil`: none).
        var expiresIn: Int? = 3600
        /// An error answer of the token endpoint instead of tokens: status and JSON body.
        var tokenError: (status: Int, body: String)?
        /// `dpop_signing_alg_values_supported` in its discovery document (`nil`: left out, a
        /// server without DPoP). With it, a token request that carries a `DPoP` proof gets
        /// `token_type` `DPoP`, and every answer a `DPoP-Nonce` (`NAME-nonce-N`), which the
        /// next proofs carry. It checks no proof: the SDK's own tests do.
        var dpopAlgorithms: [String]?
    }

    /// The first letters of its tokens.
    let name: String
    /// The routes below, on the harness's one scriptable fake.
    let fake = FakeTokenServer(notFound: .json(404, #"{"error":"not_found"}"#))
    private let http: LoopbackHTTPServer
    private let state: LockedValue<(settings: Settings, serial: Int, nonceSerial: Int)>

    /// `http://127.0.0.1:PORT`: the issuer.
    var issuer: String { http.baseURL }
    /// The paths of the requests it got, in order (`/token`, `/revoke`, ...).
    var paths: [String] { fake.requests.map(\.path) }
    /// The tokens sent to its revocation endpoint.
    var revokedTokens: [String] { fake.requests(.post, "/revoke").compactMap { $0.form["token"] } }

    /// The `DPoP` proofs it was sent, in order.
    var proofs: [String] { fake.requests.compactMap { $0.header("DPoP") } }
    /// The `DPoP-Nonce` values it handed out.
    var nonces: [String] { (0..<state.withLock { $0.nonceSerial }).map { "\(name)-nonce-\($0 + 1)" } }

    /// The `Authorization` header fields of the requests to its token endpoint.
    var tokenAuthorizations: [String] { fake.requests(.post, "/token").compactMap { $0.header("Authorization") } }

    init(_ name: String, _ settings: Settings = Settings()) throws {
        self.name = name
        let state = LockedValue((settings: settings, serial: 0, nonceSerial: 0))
        self.state = state
        http = try fake.serveOnLoopback()
        let base = http.baseURL
        let settings: @Sendable () -> Settings = { state.withLock { $0.settings } }
        // A new nonce for each answer of a provider that takes DPoP (RFC 9449 §8).
        let nonce: @Sendable () -> [String: String] = {
            guard settings().dpopAlgorithms != nil else { return [:] }
            let serial = state.withLock { state in
                state.nonceSerial += 1
                return state.nonceSerial
            }
            return ["DPoP-Nonce": "\(name)-nonce-\(serial)"]
        }
        fake.route(.get, "/.well-known/openid-configuration") { _ in
            let dpop = settings().dpopAlgorithms.map { algorithms in
                #","dpop_signing_alg_values_supported":[\#(algorithms.map { "\"\($0)\"" }.joined(separator: ","))]"#
            } ?? ""
            let document = """
                {"issuer":"\(settings().namedIssuer ?? base)","token_endpoint":"\(base)/token",
                 "device_authorization_endpoint":"\(base)/device","revocation_endpoint":"\(base)/revoke",
                 "userinfo_endpoint":"\(base)/userinfo","authorization_endpoint":"\(base)/authorize",
                 "code_challenge_methods_supported":["S256"],
                 "grant_types_supported":["client_credentials","urn:ietf:params:oauth:grant-type:device_code","refresh_token"]\(dpop)}
                """
            return .delayed(settings().discoveryDelay, .json(200, document))
        }
        fake.route(.post, "/device") { _ in
            .json(200, object: ["device_code": "device-code-1", "user_code": settings().userCode,
                                "verification_uri": settings().verificationURI ?? "\(base)/activate", "expires_in": 600,
                                "interval": 1])
        }
        fake.route(.post, "/token") { request in
            let settings = settings()
            if let error = settings.tokenError { return .json(error.status, error.body) }
            let serial = state.withLock { state in
                state.serial += 1
                return state.serial
            }
            let proved = settings.dpopAlgorithms != nil && request.header("DPoP") != nil
            var object: [String: Any] = ["access_token": settings.accessToken ?? "\(name)-access-\(serial)",
                                         "token_type": proved ? "DPoP" : "Bearer"]
            if let expiresIn = settings.expiresIn { object["expires_in"] = expiresIn }
            if request.form["grant_type"] != "client_credentials" { object["refresh_token"] = "\(name)-refresh-\(serial)" }
            return .json(200, object: object, headers: nonce())
        }
        fake.route(.post, "/revoke") { _ in .delayed(settings().revocationDelay, .respond(status: 200, headers: nonce(), body: Data())) }
        fake.route(.get, "/userinfo") { _ in .json(200, settings().userinfo, headers: nonce()) }
    }

    /// Changes the settings.
    func configure(_ change: @Sendable (inout Settings) -> Void) {
        state.withLock { change(&$0.settings) }
    }

    /// Stops answering: connections are refused from now on.
    func stop() { http.stop() }

    /// Waits until a request for `path` has arrived (a test that races a command against
    /// another waits for the first one to get there); whether it did within `seconds`.
    func waitForRequest(_ path: String, seconds: Double = 30) async throws -> Bool {
        try await fake.waitForRequest(path, seconds: seconds)
    }
}

extension CLIProcess {
    /// `app-oauth sign-in --client-credentials` at `provider` into `store`, as client `client`.
    func signInClientCredentials(_ provider: FakeProvider, client: String = "job", _ store: [String],
                                 timeout: Double = 60) async throws -> Outcome {
        let secretFile = folder.appendingPathComponent("client-secret")
        if !FileManager.default.fileExists(atPath: secretFile.path) {
            try Data((FakeProvider.clientSecret + "\n").utf8).write(to: secretFile)
        }
        return try await run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", client, "--client-credentials",
                                           "--client-secret-file", secretFile.path] + store, timeout: timeout)
    }

    /// The sign-in profile beside the store file `name` (`nil` when there is none), as JSON.
    func profile(beside name: String) throws -> [String: Any]? {
        let url = folder.appendingPathComponent(name + ".profile.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    }

    /// Makes the discovery document kept in the profile beside `name` older than a day, so the
    /// next command reads the provider's document again (as one does once a day).
    func ageKeptDiscoveryDocument(beside name: String) throws {
        let url = folder.appendingPathComponent(name + ".profile.json")
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(profile["metadata"] != nil, "the profile keeps no discovery document")
        profile["discoveredAt"] = 0   // 2001-01-01, as JSONEncoder writes dates
        try JSONSerialization.data(withJSONObject: profile).write(to: url)
    }

    /// The access token in the plain store file `name`, or `nil` when it holds no session.
    func storedAccessToken(_ name: String) throws -> String? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        guard !data.isEmpty else { return nil }
        let file = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (file?["credentials"] as? [String: Any])?["accessToken"] as? String
    }
}
