import Logging
import NIOSSL
import PostgresNIO
import TokenStore

/// Asks the database once, on a connection of its own, why no pooled connection came: the
/// pool retries a refused login (a wrong password, an unknown user or database, no
/// `pg_hba.conf` entry) until the lease times out, which would look like a database that is
/// down. A refused login is not something waiting fixes, so it is reported as such.
struct LoginProbe: Sendable {
    private let configuration: PostgresConnection.Configuration

    /// SQLSTATEs of a refused login: class 28 (invalid authorization: wrong password, no
    /// `pg_hba.conf` entry) and 3D000 (no such database).
    static func isRefusedLogin(sqlState: String) -> Bool {
        sqlState.hasPrefix("28") || sqlState == "3D000"
    }

    /// What the connection does about TLS, as the URL's `sslmode` says.
    enum TLSMode: Sendable {
        case disable, prefer, require
    }
    private let tlsMode: TLSMode

    /// A probe with the URL's settings.
    init(host: String, port: Int, username: String, password: String?, database: String?, tls: TLSMode) {
        configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable
        )
        tlsMode = tls
    }

    /// The refused login, as a non-transient ``TokenStoreError`` (`database`), or `nil` when
    /// the probe connects or fails for another reason (the database is down, say) within
    /// `timeout` (at most 5 s).
    func refusal(location: String, within timeout: Duration) async -> TokenStoreError? {
        let logger = Logger(label: "PostgresTokenStore.LoginProbe", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = self.configuration
        if tlsMode != .disable {
            // Built only when a probe runs (rarely): a TLS context loads the system's roots.
            guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
            configuration.tls = tlsMode == .prefer ? .prefer(context) : .require(context)
        }
        let limit = min(timeout, .seconds(5))
        configuration.options.connectTimeout = .milliseconds(max(100, Int64(limit / .milliseconds(1))))
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            guard let sqlState = error.serverInfo?[.sqlState], Self.isRefusedLogin(sqlState: sqlState) else { return nil }
            let failure = PostgresTokenStoreFailure(error)
            return TokenStoreError(
                kind: .database, path: location,
                reason: "connecting failed: the database refused the login (\(failure))", underlyingError: failure
            )
        } catch {
            return nil
        }
    }
}
