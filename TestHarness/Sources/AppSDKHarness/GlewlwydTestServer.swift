public import Foundation
public import NetworkService
public import Testing

/// The conformance tests' second third-party server: glewlwyd, Debian's OpenID Connect
/// provider, started by `scripts/lib/glewlwyd.sh` from `scripts/test`, from the environment
/// (`APP_GLEWLWYD_URL`, `APP_GLEWLWYD_ISSUER`, `APP_GLEWLWYD_USERNAME`,
/// `APP_GLEWLWYD_PASSWORD`, `APP_GLEWLWYD_BROWSER_CLIENT_ID`, `APP_GLEWLWYD_REDIRECT_PORT`,
/// `APP_GLEWLWYD_DEVICE_CLIENT_ID`, `APP_GLEWLWYD_SERVICE_CLIENT_ID`,
/// `APP_GLEWLWYD_SERVICE_CLIENT_SECRET`, `APP_GLEWLWYD_SERVICE_SCOPE`,
/// `APP_GLEWLWYD_ACCESS_TOKEN_LIFETIME`: what the script writes to its `STATE_DIR/env`).
///
/// Unlike the django-oauth-toolkit server it has no test routes: no counters, no early
/// expiry. Its issuer has a path (`{url}/api/oidc`) and serves only the OpenID Connect
/// discovery document; it compares redirect URIs as strings, so the browser client's is
/// registered with its port (``redirectPort``).
public enum GlewlwydTestServer {
    private static let environment = ProcessInfo.processInfo.environment
    private static func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's base URL (`http://127.0.0.1:PORT`), if set.
    public static let url = value("APP_GLEWLWYD_URL")
    /// The OpenID Connect issuer (`{url}/api/oidc`).
    public static let issuer = value("APP_GLEWLWYD_ISSUER") ?? ""
    /// The user's username.
    public static let username = value("APP_GLEWLWYD_USERNAME") ?? ""
    /// The user's password.
    public static let password = value("APP_GLEWLWYD_PASSWORD") ?? ""
    /// The public client of the authorization-code flow; its one redirect URI is
    /// `http://127.0.0.1:<redirectPort>/callback`.
    public static let browserClientID = value("APP_GLEWLWYD_BROWSER_CLIENT_ID") ?? ""
    /// The port of the browser client's registered redirect URI.
    public static let redirectPort = value("APP_GLEWLWYD_REDIRECT_PORT").flatMap(UInt16.init)
    /// The public client of the device grant.
    public static let deviceClientID = value("APP_GLEWLWYD_DEVICE_CLIENT_ID") ?? ""
    /// The confidential client-credentials client.
    public static let serviceClientID = value("APP_GLEWLWYD_SERVICE_CLIENT_ID") ?? ""
    /// Its secret.
    public static let serviceClientSecret = value("APP_GLEWLWYD_SERVICE_CLIENT_SECRET") ?? ""
    /// The scope the client-credentials client must ask for (glewlwyd refuses a request without one).
    public static let serviceScope = value("APP_GLEWLWYD_SERVICE_SCOPE") ?? ""
    /// The access tokens' lifetime in seconds (`expires_in`; `exp` is a whole-second `iat` plus this).
    public static let accessTokenLifetime = value("APP_GLEWLWYD_ACCESS_TOKEN_LIFETIME").flatMap(Int.init) ?? 3

    /// The issuer as a URL.
    /// - Throws: ``TestSetupError`` when `APP_GLEWLWYD_ISSUER` is not set.
    public static func issuerURL() throws -> URL {
        guard let url = URL(string: issuer), url.host != nil else { throw TestSetupError("APP_GLEWLWYD_ISSUER is not set") }
        return url
    }

    /// The server, as the `api` of a session (its userinfo endpoint is the protected resource).
    /// - Throws: ``TestSetupError`` when `APP_GLEWLWYD_URL` is not set.
    public static func server() throws -> Server {
        guard let url else { throw TestSetupError("APP_GLEWLWYD_URL is not set") }
        return try Server(baseURL: url, transport: URLSessionTransport(timeout: 20))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the glewlwyd server is configured.
    public static var glewlwyd: Self {
        .enabled(if: GlewlwydTestServer.url != nil,
                 "APP_GLEWLWYD_URL is not set: these tests need the glewlwyd server that scripts/test starts (scripts/lib/glewlwyd.sh)")
    }
}
