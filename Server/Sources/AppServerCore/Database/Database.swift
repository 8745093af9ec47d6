import Foundation
import Logging
import SQLiteNIO

/// The server's one SQLite connection, with serialized transactions.
///
/// Every read and write goes through ``transaction(_:)``; the connection runs one transaction at a
/// time (SQLite allows one writer anyway), so a check-then-write sequence such as refresh-token
/// rotation is atomic.
final class Database: Sendable {
    private let connection: SQLiteConnection
    private let queue = TransactionQueue()

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens (creating when missing) the database and brings its schema up to date.
    static func open(_ location: DatabaseLocation, logger: Logger) async throws(DatabaseError) -> Database {
        let storage: SQLiteConnection.Storage
        switch location {
        case .memory: storage = .memory
        case .file(let path):
            storage = .file(path: path)
            // Create the file owner-only before SQLite does (SQLite gives -wal/-shm the same mode):
            // it holds password and token hashes.
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        } catch {
            throw DatabaseError(operation: "open \(location)", underlying: error)
        }
        let database = Database(connection: connection)
        do {
            try await database.checkIntegrity(location)
            try await database.configure(isFile: location != .memory)
            try await Schema.migrate(database)
        } catch {
            // A connection that is never closed trips SQLiteNIO's assertion when it is released
            // (a crash instead of the promised exit 1), so close it before reporting the error.
            try? await connection.close()
            throw error
        }
        return database
    }

    /// Runs `PRAGMA quick_check` and refuses a file that is not a SQLite database or is damaged.
    private func checkIntegrity(_ location: DatabaseLocation) async throws(DatabaseError) {
        guard case .file(let path) = location else { return }
        let rows: [SQLiteRow]
        do {
            rows = try await connection.query("PRAGMA quick_check", [])
        } catch {
            throw DatabaseError(operation: "check \(path)", underlying: CorruptDatabase(path: path, problems: ["\(error)"]))
        }
        let problems = rows.compactMap { $0.columns.first?.data.string }
        guard problems == ["ok"] else {
            throw DatabaseError(operation: "check \(path)", underlying: CorruptDatabase(path: path, problems: problems))
        }
    }

    private func configure(isFile: Bool) async throws(DatabaseError) {
        try await transactionlessExecute("PRAGMA foreign_keys = ON")
        if isFile {
            try await transactionlessExecute("PRAGMA journal_mode = WAL")
            try await transactionlessExecute("PRAGMA synchronous = NORMAL")
        }
    }

    private func transactionlessExecute(_ sql: String) async throws(DatabaseError) {
        do {
            _ = try await connection.query(sql, [])
        } catch {
            throw DatabaseError(operation: sql, underlying: error)
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`, rolling back when it throws.
    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        let connection = self.connection
        return try await queue.run {
            let transaction = Transaction(connection: connection)
            try await transaction.execute("BEGIN IMMEDIATE")
            do {
                let value = try await body(transaction)
                try await transaction.execute("COMMIT")
                return value
            } catch {
                try? await transaction.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Closes the connection; later calls fail.
    func close() async {
        try? await queue.run { [connection] in try await connection.close() }
    }
}

/// Statements inside one transaction of ``Database``.
struct Transaction: Sendable {
    let connection: SQLiteConnection

    /// Runs a statement and returns its rows.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws(DatabaseError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw DatabaseError(operation: sql, underlying: error)
        }
    }

    /// Runs a statement whose rows are not needed.
    func execute(_ sql: String, _ binds: [SQLiteData] = []) async throws(DatabaseError) {
        try await query(sql, binds)
    }

    /// The number of rows changed by the last statement.
    func changes() async throws(DatabaseError) -> Int {
        try await query("SELECT changes() AS n").first?.int("n") ?? 0
    }
}

/// A database operation failed.
public struct DatabaseError: Error, CustomStringConvertible {
    /// The statement or step that failed.
    public let operation: String
    /// What SQLite (or the row decoding) reported.
    public let underlying: any Error

    /// A description for logs (statements carry no secrets: values are always bound).
    public var description: String { "database error in \(operation): \(underlying)" }
}

/// `PRAGMA quick_check` found the database file damaged, or it is not a SQLite database at all.
public struct CorruptDatabase: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What SQLite reported (the first few lines).
    public let problems: [String]

    /// A description for the start-up error message.
    public var description: String {
        "\(path) is not a usable SQLite database (PRAGMA quick_check: \(problems.prefix(3).joined(separator: "; "))); "
            + "restore it from a backup or move it away to start with an empty database"
    }
}
