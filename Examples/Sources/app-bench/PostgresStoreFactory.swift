import Foundation
import PostgresTokenStore
import TokenStore

/// Opens the workers' `PostgresTokenStore`, with the database URL from `APP_BENCH_DATABASE_URL`.
enum PostgresStoreFactory {
    struct MissingURL: Error, CustomStringConvertible {
        var description: String { "set APP_BENCH_DATABASE_URL to the PostgreSQL URL (postgres://user:password@host:port/db)" }
    }

    static func open(account: String, keyFile: URL) async throws -> any TokenStore {
        guard let url = ProcessInfo.processInfo.environment["APP_BENCH_DATABASE_URL"], !url.isEmpty else { throw MissingURL() }
        return try await PostgresTokenStore(url: url, account: account, key: .keyFile(keyFile))
    }
}
