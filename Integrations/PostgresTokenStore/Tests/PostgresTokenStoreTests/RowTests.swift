import Foundation
import PostgresNIO
import PostgresTokenStore
import Testing
import TokenStore

@Suite("A PostgreSQL token store keeps one row per account", .postgres)
struct RowTests {
    @Test("saved credentials load back, also through another store and connection")
    func roundTrip() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        let other = try await TestDatabase.store(table: table)
        #expect(try await store.load() == nil)

        let credentials = TestDatabase.credentials()
        try await store.save(credentials)
        #expect(try await store.load() == credentials)
        #expect(try await other.load() == credentials)

        let newer = TestDatabase.credentials("newer")
        try await other.save(newer)
        #expect(try await store.load() == newer)
        await store.shutdown()
        await other.shutdown()
    }

    @Test("several accounts share one table without touching each other's rows")
    func severalAccounts() async throws {
        let table = TestDatabase.uniqueTable()
        let kim = try await TestDatabase.store(account: "kim", table: table)
        let lee = try await TestDatabase.store(account: "lee", table: table)
        let kims = TestDatabase.credentials("kim")
        let lees = TestDatabase.credentials("lee")
        try await kim.save(kims)
        try await lee.save(lees)
        #expect(try await kim.load() == kims)
        #expect(try await lee.load() == lees)

        try await kim.clear()
        #expect(try await kim.load() == nil)
        #expect(try await lee.load() == lees)
        await kim.shutdown()
        await lee.shutdown()
    }

    @Test("clear removes the row, and clearing nothing is no error")
    func clear() async throws {
        let store = try await TestDatabase.store(table: TestDatabase.uniqueTable())
        try await store.clear()
        try await store.save(TestDatabase.credentials())
        try await store.clear()
        #expect(try await store.load() == nil)
        try await store.clear()
        await store.shutdown()
    }

    @Test("the migration is idempotent and several stores may run it at once")
    func migrationIsIdempotent() async throws {
        let table = TestDatabase.uniqueTable()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let store = try await TestDatabase.store(account: "account-\(index)", table: table)
                    try await store.migrate()
                    try await store.save(TestDatabase.credentials("\(index)"))
                    try await store.migrate()
                    #expect(try await store.load()?.accountID == "member-\(index)")
                    await store.shutdown()
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("a store that does not migrate by itself says the table is missing, and works after migrate()")
    func withoutAutomaticMigration() async throws {
        let url = try #require(TestDatabase.url)
        let store = try await PostgresTokenStore(
            url: url, account: "kim", key: TestDatabase.key(1),
            options: .init(table: TestDatabase.uniqueTable(), migratesAutomatically: false)
        )
        do {
            _ = try await store.load()
            Issue.record("loaded from a table that does not exist")
        } catch {
            #expect(error.kind == .database)
            #expect((error.underlyingError as? PostgresTokenStoreFailure)?.sqlState == "42P01")
        }
        try await store.migrate()
        #expect(try await store.load() == nil)
        await store.shutdown()
    }

    @Test("a table name with quotes and spaces is an identifier, not SQL")
    func oddTableName() async throws {
        let table = "odd \"name\"; DROP TABLE x; -- " + TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        let credentials = TestDatabase.credentials()
        try await store.save(credentials)
        #expect(try await store.load() == credentials)
        await store.shutdown()
    }

    @Test("a store over the caller's PostgresClient works while the caller runs it")
    func callersClient() async throws {
        let client = PostgresClient(configuration: try TestDatabase.clientConfiguration())
        let table = TestDatabase.uniqueTable()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let store = try await PostgresTokenStore(client: client, account: "kim", encryption: .key(TestDatabase.key(1)),
                                                     options: .init(table: table))
            let credentials = TestDatabase.credentials()
            try await store.withExclusiveAccess { try await store.save(credentials) }
            #expect(try await store.load() == credentials)
            group.cancelAll()
        }
    }
}
