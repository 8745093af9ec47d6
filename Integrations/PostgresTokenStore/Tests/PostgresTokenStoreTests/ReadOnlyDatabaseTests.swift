import Foundation
import PostgresNIO
@testable import PostgresTokenStore
import Testing
import TokenStore

/// A login role whose transactions are read-only (`ALTER ROLE … SET default_transaction_read_only
/// = on`), with every right on the tables: to the store, a database that is read-only (as a hot
/// standby is), without making the shared test database read-only for the tests running alongside.
struct ReadOnlyRole {
    let name: String
    let password: String

    /// Creates the role with rights on `table` and its unreadable table (which must exist).
    static func make(table: String) async throws -> ReadOnlyRole {
        let role = ReadOnlyRole(name: "ro_" + TestDatabase.uniqueTable(), password: "ro-" + UUID().uuidString)
        let tables = TableNames(table: table, schema: nil)
        let sequence = "\"" + (table + "_unreadable_id_seq").replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try await TestDatabase.execute("CREATE ROLE \(role.name) LOGIN PASSWORD '\(role.password)'")
        try await TestDatabase.execute("ALTER ROLE \(role.name) SET default_transaction_read_only = on")
        try await TestDatabase.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON \(tables.credentials), \(tables.unreadable) TO \(role.name)")
        try await TestDatabase.execute("GRANT USAGE ON SEQUENCE \(sequence) TO \(role.name)")
        return role
    }

    /// The test database's URL with this role's login.
    func url() throws -> String {
        let url = try #require(TestDatabase.url)
        var components = try #require(URLComponents(string: url))
        components.user = name
        components.password = password
        return try #require(components.string)
    }

    /// A store logged in as this role.
    func store(table: String, account: String = "kim") async throws -> PostgresTokenStore {
        try await PostgresTokenStore(url: try url(), account: account, key: TestDatabase.key(1),
                                     options: .init(table: table, lockTimeout: .seconds(20), connectionTimeout: .seconds(10)))
    }

    func drop() async throws {
        try await TestDatabase.execute("DROP OWNED BY \(name)")
        try await TestDatabase.execute("DROP ROLE \(name)")
    }
}

@Suite("A read-only database (a standby, default_transaction_read_only)", .postgres)
struct ReadOnlyDatabaseTests {
    @Test("when the tables exist, loads work without DDL, also inside the exclusive section")
    func readsWork() async throws {
        let table = TestDatabase.uniqueTable()
        let writer = try await TestDatabase.store(table: table)
        let credentials = TestDatabase.credentials()
        try await writer.save(credentials)
        let role = try await ReadOnlyRole.make(table: table)
        let reader = try await role.store(table: table)

        #expect(try await reader.load() == credentials)
        let inside = try await reader.withExclusiveAccess { try await reader.load() }
        #expect(inside == credentials)
        try await reader.migrate()   // the tables exist: nothing to create, no error
        await reader.shutdown()
        await writer.shutdown()
        try await role.drop()
    }

    @Test("saves, clears and moving aside fail with readOnly, which names the read-only database, and change nothing")
    func writesAreReadOnlyErrors() async throws {
        let table = TestDatabase.uniqueTable()
        let writer = try await TestDatabase.store(table: table)
        try await writer.save(TestDatabase.credentials())
        let row = try await TestDatabase.rowBytes(table: table)
        let role = try await ReadOnlyRole.make(table: table)
        let reader = try await role.store(table: table)

        for operation in ["save", "clear", "save in a section", "clear in a section"] {
            do {
                switch operation {
                case "save": try await reader.save(TestDatabase.credentials("new"))
                case "clear": try await reader.clear()
                case "save in a section": try await reader.withExclusiveAccess { try await reader.save(TestDatabase.credentials("new")) }
                default: try await reader.withExclusiveAccess { try await reader.clear() }
                }
                Issue.record("\(operation) worked on a read-only database")
            } catch let error as TokenStoreError {
                #expect(error.kind == .readOnly, "\(operation): \(error)")
                #expect(!error.isTransient)
                #expect("\(error)".contains("read-only"), "\(error)")
                #expect((error.underlyingError as? PostgresTokenStoreFailure)?.sqlState == "25006", "\(error)")
                #expect(!"\(error)".contains(role.password) && !"\(error)".contains(TestDatabase.password))
            }
        }
        #expect(try await TestDatabase.rowBytes(table: table) == row, "the row is as it was")
        // A damaged row cannot be moved aside either: the same error, the row as it was.
        try await TestDatabase.execute("UPDATE \"\(table)\" SET credentials = substring(credentials from 1 for 30)")
        let damaged = try await TestDatabase.rowBytes(table: table)
        let error = await #expect(throws: TokenStoreError.self) { _ = try await reader.moveAsideIfUnreadable() }
        #expect(error?.kind == .readOnly)
        #expect(try await TestDatabase.rowBytes(table: table) == damaged)
        await reader.shutdown()
        await writer.shutdown()
        try await role.drop()
    }

    @Test("when a table is missing, the store says the database is read-only, as a store error")
    func missingTableOnReadOnlyDatabase() async throws {
        let existing = TestDatabase.uniqueTable()
        let writer = try await TestDatabase.store(table: existing)
        try await writer.migrate()
        let role = try await ReadOnlyRole.make(table: existing)
        let reader = try await role.store(table: TestDatabase.uniqueTable())
        for operation in ["load", "section"] {
            do {
                if operation == "load" {
                    _ = try await reader.load()
                } else {
                    try await reader.withExclusiveAccess {}
                }
                Issue.record("\(operation) worked without the tables on a read-only database")
            } catch let error as TokenStoreError {
                #expect(error.kind == .readOnly, "\(operation): \(error)")
            } catch {
                Issue.record("\(operation) threw \(type(of: error)), not a TokenStoreError: \(error)")
            }
        }
        await reader.shutdown()
        await writer.shutdown()
        try await role.drop()
    }
}
