import Foundation
import NetworkService
import PostgresNIO
@testable import PostgresTokenStore
import Testing
import TokenStore

/// The database the tests use: `APP_POSTGRES_URL` (scripts/lib/postgres.sh start DIR writes it).
enum TestDatabase {
    static let url: String? = ProcessInfo.processInfo.environment["APP_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The URL's password, to check that no output holds it.
    static var password: String {
        url.flatMap { URLComponents(string: $0)?.password } ?? "no-password-set"
    }

    /// A table of its own for each test, so that tests running in parallel do not meet.
    static func uniqueTable() -> String {
        "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// A store on the test database. `lockTimeout` and `connectionTimeout` are short so a broken
    /// lock shows as a failure, not a hang.
    static func store(
        account: String = "kim", table: String, encryption: PostgresTokenStore.Encryption = .key(key(1)),
        lockTimeout: Duration? = .seconds(20), connectionTimeout: Duration = .seconds(10)
    ) async throws -> PostgresTokenStore {
        let url = try #require(url)
        return try await PostgresTokenStore(
            url: url, account: account, encryption: encryption,
            options: .init(table: table, lockTimeout: lockTimeout, connectionTimeout: connectionTimeout)
        )
    }

    /// A 32-byte raw key made of `byte`.
    static func key(_ byte: UInt8) -> EncryptedFileTokenStore.KeySource {
        .rawKey([UInt8](repeating: byte, count: 32))
    }

    /// Credentials whose tokens are unique and easy to search for.
    static func credentials(_ label: String = "a") -> Credentials {
        let unique = UUID().uuidString
        return Credentials(
            accessToken: AccessToken("secret-access-\(label)-\(unique)"), refreshToken: "secret-refresh-\(label)-\(unique)",
            accessTokenExpiresAt: Date(timeIntervalSinceReferenceDate: 806_839_200.5), accountID: "member-\(label)"
        )
    }

    /// The client configuration for the test database.
    static func clientConfiguration() throws -> PostgresClient.Configuration {
        try DatabaseURL(try #require(url)).configuration
    }

    /// Runs `body` on a connection of its own (not a store's), for looking at rows and locks.
    static func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let parsed = try DatabaseURL(try #require(url))
        let configuration = parsed.configuration
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: try #require(configuration.host), port: configuration.port ?? 5432,
                username: configuration.username, password: configuration.password,
                database: configuration.database, tls: .disable
            ),
            id: 1, logger: Logger(label: "tests")
        )
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The bytes in `table` for `account`, read directly.
    static func rowBytes(table: String, account: String = "kim", unreadable: Bool = false) async throws -> [[UInt8]] {
        try await withConnection { connection in
            let name = TableNames(table: table, schema: nil)
            var binds = PostgresBindings()
            binds.append(account)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT credentials FROM \(unreadable ? name.unreadable : name.credentials) WHERE account = $1", binds: binds),
                logger: connection.logger
            )
            var result: [[UInt8]] = []
            for try await buffer in rows.decode(ByteBuffer.self) { result.append(Array(buffer.readableBytesView)) }
            return result
        }
    }

    /// Writes `bytes` as the row of `account` in `table` directly (creating the table first when
    /// `create`, as the store would), for rows written by someone else.
    static func writeRow(table: String, account: String, bytes: [UInt8], create: Bool = false) async throws {
        let name = TableNames(table: table, schema: nil)
        try await withConnection { connection in
            if create {
                for statement in [name.createCredentials, name.createUnreadable] {
                    for try await _ in try await connection.query(PostgresQuery(unsafeSQL: statement), logger: connection.logger) {}
                }
            }
            var binds = PostgresBindings()
            binds.append(account)
            binds.append(ByteBuffer(bytes: bytes))
            let rows = try await connection.query(PostgresQuery(unsafeSQL: name.upsert, binds: binds), logger: connection.logger)
            for try await _ in rows {}
        }
    }

    /// Runs one statement (for tampering).
    static func execute(_ sql: String) async throws {
        try await withConnection { connection in
            for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger) {}
        }
    }

    /// Terminates the backends holding the section lock of `table` and `account`; returns how many.
    static func terminateLockHolders(table: String, account: String = "kim") async throws -> Int {
        let key = UInt64(bitPattern: AdvisoryLockKey.make(table: table, account: account))
        return try await withConnection { connection in
            var binds = PostgresBindings()
            binds.append(Int64(key >> 32))
            binds.append(Int64(key & 0xffff_ffff))
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT count(pg_terminate_backend(pid))::int8 FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND classid::int8 = $1 AND objid::int8 = $2 AND objsubid = 1
                """, binds: binds), logger: connection.logger)
            var count = 0
            for try await value in rows.decode(Int64.self) { count = Int(value) }
            return count
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with a database, and says why it is skipped otherwise.
    static var postgres: Self {
        .enabled(if: TestDatabase.url != nil,
                 "APP_POSTGRES_URL is not set: this test needs PostgreSQL (scripts/lib/postgres.sh start DIR starts one)")
    }
}

/// A value tasks share in a test.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
    var current: Value { withLock { $0 } }
}
