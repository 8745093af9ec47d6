public import Foundation
public import NetworkService

/// Where tests find their live server, from the environment:
/// - `APP_SERVER_URL`: the server's base URL (tests that need a server skip, with the reason,
///   when it is unset; `scripts/test` always sets it);
/// - `APP_ADMIN_EMAIL`, `APP_ADMIN_PASSWORD`: an admin account, for the admin routes;
/// - `APP_SERVER_TEST_MODE=1`: the server has the `/v1/_test` routes (the reference server
///   with `--test-mode`, see ``TestModeClient``);
/// - `APP_ACCESS_TOKEN_LIFETIME`: the server's access-token lifetime in seconds, when short.
///
/// ```swift
/// @Test("signs in", .liveServer)
/// func signsIn() async throws {
///     let server = try LiveServerEnvironment.server()
///     …
/// }
/// ```
public enum LiveServerEnvironment {
    /// The live server's base URL, if set.
    public static let serverURL = value("APP_SERVER_URL")
    /// The admin account's email, if set.
    public static let adminEmail = value("APP_ADMIN_EMAIL")
    /// The admin account's password, if set.
    public static let adminPassword = value("APP_ADMIN_PASSWORD")
    /// Whether the server has the test-mode routes.
    public static let hasTestMode = value("APP_SERVER_TEST_MODE") == "1"
    /// The server's access-token lifetime, when the environment says it.
    public static let accessTokenLifetime = value("APP_ACCESS_TOKEN_LIFETIME").flatMap(TimeInterval.init)

    /// Whether a server and an admin account on it are configured.
    public static var hasAdmin: Bool { serverURL != nil && adminEmail != nil && adminPassword != nil }

    private static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The live server's base URL.
    /// - Throws: ``TestSetupError`` when `APP_SERVER_URL` is not set.
    public static func url() throws -> String {
        guard let serverURL else { throw TestSetupError("APP_SERVER_URL is not set") }
        return serverURL
    }

    /// The live server, through URLSession with a 20-second timeout.
    /// - Throws: ``TestSetupError`` when `APP_SERVER_URL` is not set; the server's
    ///   a `NetworkError` of kind `.invalidServerURL` when it is malformed.
    public static func server() throws -> Server {
        try Server(baseURL: url(), transport: URLSessionTransport(timeout: 20))
    }

    /// A new unique email address for a test's own account: `<prefix>-<12 random hex>@example.com`.
    public static func uniqueEmail(_ prefix: String = "test") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())@example.com"
    }
}

/// A test could not be set up (a missing variable, a helper that failed); the test fails
/// with this message rather than skipping.
public struct TestSetupError: Error, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public let description: String
    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
