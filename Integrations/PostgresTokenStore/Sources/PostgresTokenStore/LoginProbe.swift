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

    /// A probe with the URL's settings; `nil` when its TLS settings cannot be built here.
    init?(host: String, port: Int, username: String, password: String?, database: String?, sslMode: String) {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "disable":
            tls = .disable
        default:
            guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
            tls = sslMode == "prefer" || sslMode == "allow" ? .prefer(context) : .require(context)
        }
        configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls
        )
    }

    /// The refused login, as a non-transient ``TokenStoreError`` (`database`), or `nil` when
    /// the probe connects or fails for another reason (the database is down, say) within
    /// `timeout` (at most 5 s).
    func refusal(location: String, within timeout: Duration) async -> TokenStoreError? {
        let logger = Logger(label: "PostgresTokenStore.LoginProbe", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = self.configuration
        let limit = min(timeout, .seconds(5))
        configuration.options.connectTimeout = .milliseconds(max(100, Int64(limit / .milliseconds(1))))
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            guard let sqlState = error.serverInfo?[.sqlState], Self.isRefusedLogin(sqlState: sqlState) else { return nil }
            let failure = PostgresTokenStoreFailure(
                sqlState: sqlState, serverMessage: error.serverInfo?[.message], clientError: error.code.description
            )
            return TokenStoreError(
                kind: .database, path: location,
                reason: "connecting failed: the database refused the login (\(failure))", underlyingError: failure
            )
        } catch {
            return nil
        }
    }
}
