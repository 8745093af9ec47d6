import AppSDKTesting
import Foundation
import NetworkService
import TokenStore
import Testing

/// A small OAuth 2.0 provider on 127.0.0.1 for `app-oauth`'s tests that need no real server:
/// discovery, a token endpoint (client credentials, the device grant, refresh), device
/// authorization, revocation and userinfo. Its tokens start with its ``name`` (`A-access-1`),
/// so a test can tell which provider issued a stored token. ``settings`` make it slow, wrong
/// or hostile where a test needs it.
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
    }

    /// The first letters of its tokens.
    let name: String
    private let http: LoopbackHTTPServer
    private let state: LockedValue<(settings: Settings, serial: Int)>

    /// `http://127.0.0.1:PORT`: the issuer.
    var issuer: String { http.baseURL }
    /// The paths of the requests it got, in order (`/token`, `/revoke`, ...).
    var paths: [String] { http.requests.map { String($0.target.prefix { $0 != "?" }) } }
    /// The tokens sent to its revocation endpoint.
    var revokedTokens: [String] {
        http.requests.filter { $0.target == "/revoke" }.compactMap { Self.form($0.body)["token"] }
    }

    /// The `Authorization` header fields of the requests to its token endpoint.
    var tokenAuthorizations: [String] {
        http.requests.filter { $0.target == "/token" }.compactMap { $0.header("Authorization") }
    }

    init(_ name: String, _ settings: Settings = Settings()) throws {
        self.name = name
        let state = LockedValue((settings: settings, serial: 0))
        self.state = state
        let base = LockedValue("")
        http = try LoopbackHTTPServer { request in
            Self.handle(request, name: name, base: base.withLock { $0 }, state: state)
        }
        base.withLock { $0 = http.baseURL }
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
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if paths.contains(path) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    private static func handle(_ request: LoopbackHTTPServer.Request, name: String, base: String,
                               state: LockedValue<(settings: Settings, serial: Int)>) -> LoopbackHTTPServer.Reply {
        let settings = state.withLock { $0.settings }
        let form = Self.form(request.body)
        switch (request.method, request.target) {
        case ("GET", "/.well-known/openid-configuration"):
            let document = """
                {"issuer":"\(settings.namedIssuer ?? base)","token_endpoint":"\(base)/token",
                 "device_authorization_endpoint":"\(base)/device","revocation_endpoint":"\(base)/revoke",
                 "userinfo_endpoint":"\(base)/userinfo","authorization_endpoint":"\(base)/authorize",
                 "code_challenge_methods_supported":["S256"],
                 "grant_types_supported":["client_credentials","urn:ietf:params:oauth:grant-type:device_code","refresh_token"]}
                """
            return .delayed(settings.discoveryDelay, .json(200, document))
        case ("POST", "/device"):
            let uri = settings.verificationURI ?? "\(base)/activate"
            let object: [String: Any] = ["device_code": "device-code-1", "user_code": settings.userCode,
                                         "verification_uri": uri, "expires_in": 600, "interval": 1]
            return .json(200, Self.json(object))
        case ("POST", "/token"):
            if let error = settings.tokenError { return .json(error.status, error.body) }
            let serial = state.withLock { state in
                state.serial += 1
                return state.serial
            }
            var object: [String: Any] = ["access_token": settings.accessToken ?? "\(name)-access-\(serial)", "token_type": "Bearer"]
            if let expiresIn = settings.expiresIn { object["expires_in"] = expiresIn }
            if form["grant_type"] != "client_credentials" { object["refresh_token"] = "\(name)-refresh-\(serial)" }
            return .json(200, Self.json(object))
        case ("POST", "/revoke"):
            return .delayed(settings.revocationDelay, .respond(status: 200))
        case ("GET", "/userinfo"):
            return .json(200, settings.userinfo)
        default:
            return .json(404, #"{"error":"not_found"}"#)
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    /// A form-encoded body's fields.
    static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
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
