public import Foundation
public import NetworkService
public import Testing

/// The conformance tests' third-party OAuth 2.0 server (django-oauth-toolkit, started by
/// `scripts/lib/oauth-server.sh` from `scripts/test`), from the environment:
/// `APP_OAUTH_SERVER_URL`, `APP_OAUTH_CLIENT_ID`, `APP_OAUTH_CLIENT_SECRET`,
/// `APP_OAUTH_USERNAME`, `APP_OAUTH_PASSWORD`, its OpenID Connect issuer and sign-in clients
/// (`APP_OAUTH_ISSUER`, `APP_OAUTH_BROWSER_CLIENT_ID`, `APP_OAUTH_DEVICE_CLIENT_ID`,
/// `APP_OAUTH_SERVICE_CLIENT_ID`, `APP_OAUTH_SERVICE_CLIENT_SECRET`) and, to stop and resume
/// it, `APP_OAUTH_SERVER_SCRIPT` and `APP_OAUTH_STATE_DIR`.
public enum OAuthTestServer {
    private static let environment = ProcessInfo.processInfo.environment
    private static func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's base URL, if set.
    public static let url = value("APP_OAUTH_SERVER_URL")
    /// The confidential client's id.
    public static let clientID = value("APP_OAUTH_CLIENT_ID") ?? ""
    /// The confidential client's secret.
    public static let clientSecret = value("APP_OAUTH_CLIENT_SECRET") ?? ""
    /// The resource owner's username.
    public static let username = value("APP_OAUTH_USERNAME") ?? ""
    /// The resource owner's password.
    public static let password = value("APP_OAUTH_PASSWORD") ?? ""

    /// The OpenID Connect issuer (`{url}/o`): discovery at `{issuer}/.well-known/openid-configuration`.
    public static let issuer = value("APP_OAUTH_ISSUER") ?? ""
    /// The public client of the authorization-code flow (redirect URI `http://127.0.0.1/callback`, any port).
    public static let browserClientID = value("APP_OAUTH_BROWSER_CLIENT_ID") ?? ""
    /// The public client of the device grant.
    public static let deviceClientID = value("APP_OAUTH_DEVICE_CLIENT_ID") ?? ""
    /// The confidential client-credentials client.
    public static let serviceClientID = value("APP_OAUTH_SERVICE_CLIENT_ID") ?? ""
    /// Its secret.
    public static let serviceClientSecret = value("APP_OAUTH_SERVICE_CLIENT_SECRET") ?? ""

    /// The issuer as a URL.
    /// - Throws: ``TestSetupError`` when `APP_OAUTH_ISSUER` is not set.
    public static func issuerURL() throws -> URL {
        guard let url = URL(string: issuer), url.host != nil else { throw TestSetupError("APP_OAUTH_ISSUER is not set") }
        return url
    }

    /// The server.
    /// - Throws: ``TestSetupError`` when `APP_OAUTH_SERVER_URL` is not set.
    public static func server() throws -> Server {
        guard let url else { throw TestSetupError("APP_OAUTH_SERVER_URL is not set") }
        return try Server(baseURL: url, transport: URLSessionTransport(timeout: 20))
    }

    /// What the server counted since its start or the last ``reset()``.
    public struct Counters: Decodable, Sendable {
        /// `POST /o/token/` calls.
        public var tokenCalls: Int
        /// Token calls with `grant_type=refresh_token`.
        public var refreshCalls: Int
        /// Token calls with `grant_type=password`.
        public var passwordCalls: Int
        /// `POST /o/revoke_token/` calls.
        public var revokeCalls: Int
        /// 401 responses under `/api/`.
        public var unauthorized: Int
        /// 403 responses under `/api/`.
        public var forbidden: Int
        /// Token responses with `invalid_grant`.
        public var invalidGrant: Int
        /// Token calls with `grant_type=authorization_code`.
        public var authorizationCodeCalls: Int
        /// Token calls with the device-code grant (each poll).
        public var deviceCodeCalls: Int
        /// Token calls with `grant_type=client_credentials`.
        public var clientCredentialsCalls: Int
        /// Device polls answered `authorization_pending`.
        public var authorizationPending: Int
        /// Device polls answered `slow_down` (sooner than the interval after the previous one).
        public var slowDown: Int
    }

    /// The counters.
    public static func counters() async throws -> Counters { try await server().send(TestRoute.counters) }
    /// Zeroes the counters.
    public static func reset() async throws { try await server().send(TestRoute.reset) }
    /// Makes every access token expire now.
    public static func expireAccessTokens() async throws { try await server().send(TestRoute.expireAccessTokens) }
    /// Makes every pending device code expire now: its next poll answers `expired_token`.
    public static func expireDeviceCodes() async throws { try await server().send(TestRoute.expireDeviceCodes) }
    /// Makes the next poll of every pending device code answer `slow_down`.
    public static func slowDownDeviceCodes() async throws { try await server().send(TestRoute.slowDownDeviceCodes) }

    /// Stops the server (its port refuses connections until ``resume()``).
    public static func stop() throws { try control("stop") }
    /// Starts the stopped server again on the same port with the same database.
    public static func resume() throws { try control("resume") }

    private static func control(_ command: String) throws {
        guard let script = value("APP_OAUTH_SERVER_SCRIPT"), let state = value("APP_OAUTH_STATE_DIR") else {
            throw TestSetupError("APP_OAUTH_SERVER_SCRIPT or APP_OAUTH_STATE_DIR is not set")
        }
        // Output goes to a file, not a pipe: the server the script starts in the background
        // inherits the script's descriptors and would keep a pipe open for its whole life.
        let log = URL(fileURLWithPath: state).appendingPathComponent("control-\(command).log").path
        let status = try ChildProcess.runToCompletion(["/bin/bash", script, command, state], outputPath: log)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestSetupError("oauth-server.sh \(command) failed (\(status)): \(text.suffix(2000))")
        }
    }

    private enum TestRoute: Endpoint {
        case counters, reset, expireAccessTokens, expireDeviceCodes, slowDownDeviceCodes
        var method: HTTPMethod { self == .counters ? .get : .post }
        var path: EndpointPath {
            switch self {
            case .counters: "/test/counters"
            case .reset: "/test/reset"
            case .expireAccessTokens: "/test/expire-access-tokens"
            case .expireDeviceCodes: "/test/expire-device-codes"
            case .slowDownDeviceCodes: "/test/slow-down-device-codes"
            }
        }
        var authentication: EndpointAuthentication { .none }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the conformance tests' OAuth 2.0 server is configured.
    public static var oauthServer: Self {
        .enabled(if: OAuthTestServer.url != nil,
                 "APP_OAUTH_SERVER_URL is not set: the conformance tests need the OAuth 2.0 server that scripts/test starts")
    }
}
