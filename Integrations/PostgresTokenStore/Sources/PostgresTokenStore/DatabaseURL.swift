import Foundation
import PostgresNIO
import TokenStore

/// A `postgres://user:password@host:port/database?sslmode=…` URL, read into a client
/// configuration and a description without the password.
///
/// - `postgres://` and `postgresql://` are accepted; user, password and database may be
///   percent-encoded; the port defaults to 5432 and the database to the user's name.
/// - `sslmode`: `disable`; `prefer` (the default, as libpq: TLS when the server offers it);
///   `require` (TLS with the certificate verified against the system's roots, which is
///   libpq's `verify-full`).
struct DatabaseURL: Sendable {
    let configuration: PostgresClient.Configuration
    /// `postgres://user@host:port/database`: never the password.
    let redacted: String
    /// Tells a refused login from a database that is down (see ``LoginProbe``).
    let loginProbe: LoginProbe

    init(_ text: String) throws(TokenStoreError) {
        func invalid(_ why: String) -> TokenStoreError {
            TokenStoreError(kind: .invalidConfiguration, reason: "the database URL \(why)")
        }
        guard let components = URLComponents(string: text) else {
            throw invalid("cannot be read as a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("must start with postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw invalid("has no host")
        }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw invalid("has no user name (postgres://user:password@host/database)")
        }
        let password = components.percentEncodedPassword?.removingPercentEncoding
        var database = components.percentEncodedPath
        if database.hasPrefix("/") { database.removeFirst() }
        database = database.removingPercentEncoding ?? database
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else {
            throw invalid("has a port out of range (\(port))")
        }

        let tls: PostgresClient.Configuration.TLS
        let probeTLS: LoginProbe.TLSMode
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        switch sslMode {
        case "disable": (tls, probeTLS) = (.disable, .disable)
        case "prefer", "allow": (tls, probeTLS) = (.prefer(.makeClientConfiguration()), .prefer)
        case "require", "verify-ca", "verify-full": (tls, probeTLS) = (.require(.makeClientConfiguration()), .require)
        default: throw invalid("has an unknown sslmode (\(sslMode)); use disable, prefer or require")
        }
        if let other = components.queryItems?.first(where: { $0.name != "sslmode" }) {
            throw invalid("has a parameter this store does not read (\(other.name)); only sslmode is read")
        }

        let bracketedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password,
            database: database.isEmpty ? nil : database, tls: tls
        )
        redacted = "postgres://\(user)@\(bracketedHost):\(port)/\(database.isEmpty ? user : database)"
        loginProbe = LoginProbe(host: host, port: port, username: user, password: password,
                                database: database.isEmpty ? nil : database, tls: probeTLS)
    }

    /// `postgres://user@host:port/database` for a configuration given by the caller.
    static func redacted(_ configuration: PostgresClient.Configuration) -> String {
        let database = configuration.database.flatMap { $0.isEmpty ? nil : $0 } ?? configuration.username
        if let socket = configuration.unixSocketPath {
            return "postgres://\(configuration.username)@\(socket)/\(database)"
        }
        return "postgres://\(configuration.username)@\(configuration.host ?? "?"):\(configuration.port ?? 5432)/\(database)"
    }
}
