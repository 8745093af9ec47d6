import Foundation
import PostgresTokenStore
import Testing
import TokenStore

@Suite("A row is bound to its table and account", .postgres)
struct RowBindingTests {
    @Test("a row copied from another account (same key) is refused like a tampered one, left as it is, and moved aside by a save")
    func rowCopiedFromAnotherAccount() async throws {
        let table = TestDatabase.uniqueTable()
        let kim = try await TestDatabase.store(account: "kim", table: table)
        let lee = try await TestDatabase.store(account: "lee", table: table)
        try await kim.save(TestDatabase.credentials("kim"))
        let lees = TestDatabase.credentials("lee")
        try await lee.save(lees)

        // Someone who can write the table, but has no key, puts lee's row under kim.
        try await TestDatabase.execute(
            "UPDATE \"\(table)\" SET credentials = (SELECT credentials FROM \"\(table)\" WHERE account = 'lee') WHERE account = 'kim'"
        )
        let copied = try await TestDatabase.rowBytes(table: table, account: "kim")
        do {
            let loaded = try await kim.load()
            Issue.record("kim's store loaded lee's row: member \(loaded?.accountID ?? "nil")")
        } catch {
            #expect(error.kind == .decryptionFailed, "\(error)")
            #expect(error.reason.contains("copied here from another place"), "\(error)")
        }
        #expect(try await TestDatabase.rowBytes(table: table, account: "kim") == copied, "a load changed the row")
        #expect(try await lee.load() == lees, "lee's own row still reads")

        // A new session for kim keeps the copied row in the unreadable table.
        let kims = TestDatabase.credentials("kim again")
        try await kim.save(kims)
        #expect(try await kim.load() == kims)
        #expect(try await TestDatabase.rowBytes(table: table, account: "kim", unreadable: true) == copied)
        await kim.shutdown()
        await lee.shutdown()
    }

    @Test("a row copied from another table (same key, same account) is refused")
    func rowCopiedFromAnotherTable() async throws {
        let (first, second) = (TestDatabase.uniqueTable(), TestDatabase.uniqueTable())
        let source = try await TestDatabase.store(table: first)
        let target = try await TestDatabase.store(table: second)
        try await source.save(TestDatabase.credentials("first"))
        try await target.save(TestDatabase.credentials("second"))
        try await TestDatabase.execute(
            "UPDATE \"\(second)\" SET credentials = (SELECT credentials FROM \"\(first)\" WHERE account = 'kim') WHERE account = 'kim'"
        )
        await #expect(throws: TokenStoreError.self) { _ = try await target.load() }
        await source.shutdown()
        await target.shutdown()
    }

    @Test("rows are sealed bound (encrypted format version 2); a row of an earlier version (unbound) still loads, and the next save binds it")
    func unboundRowIsReadAndResealed() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        try await store.save(TestDatabase.credentials("bound"))
        #expect(try #require(try await TestDatabase.rowBytes(table: table).first)[8] == 2)

        // What a store of the previous version wrote: the same key, no binding (version 1).
        let old = TestDatabase.credentials("old")
        try await TestDatabase.writeRow(table: table, account: "kim", bytes: try await Self.unboundSealer().seal(old))
        #expect(try #require(try await TestDatabase.rowBytes(table: table).first)[8] == 1)
        #expect(try await store.load() == old, "no session is lost on upgrade")

        let renewed = TestDatabase.credentials("renewed")
        try await store.save(renewed)
        #expect(try #require(try await TestDatabase.rowBytes(table: table).first)[8] == 2)
        #expect(try await store.load() == renewed)
        #expect(try await TestDatabase.rowBytes(table: table, unreadable: true).isEmpty, "a readable row is replaced, not moved aside")
        await store.shutdown()
    }

    @Test("while unbound rows are accepted, an unbound row copied from another account loads (the documented upgrade window); with acceptsUnboundRows off it is refused")
    func unboundRowWindow() async throws {
        let table = TestDatabase.uniqueTable()
        let lees = TestDatabase.credentials("lee")
        try await TestDatabase.writeRow(table: table, account: "kim", bytes: try await Self.unboundSealer().seal(lees), create: true)

        let accepting = try await TestDatabase.store(table: table)
        #expect(try await accepting.load() == lees, "an unbound row carries no account: the fallback cannot tell")
        await accepting.shutdown()

        let url = try #require(TestDatabase.url)
        let strict = try await PostgresTokenStore(
            url: url, account: "kim", key: TestDatabase.key(1), options: .init(table: table, acceptsUnboundRows: false)
        )
        do {
            _ = try await strict.load()
            Issue.record("loaded an unbound row with acceptsUnboundRows off")
        } catch {
            #expect(error.kind == .unsupportedFormatVersion, "\(error)")
            #expect(error.reason.contains("version 1"), "\(error)")
        }
        // It is moved aside, not overwritten, by the next save.
        let unbound = try await TestDatabase.rowBytes(table: table)
        try await strict.save(TestDatabase.credentials("kim"))
        #expect(try await TestDatabase.rowBytes(table: table, unreadable: true) == unbound)
        await strict.shutdown()
    }

    @Test("a row rolled back to an older one of the same account loads: binding cannot tell two authentic rows apart (the server's reuse detection does)")
    func rolledBackRowLoads() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        let older = TestDatabase.credentials("older")
        try await store.save(older)
        let olderRow = try #require(try await TestDatabase.rowBytes(table: table).first)
        try await store.save(TestDatabase.credentials("newer"))

        try await TestDatabase.writeRow(table: table, account: "kim", bytes: olderRow)
        #expect(try await store.load() == older)
        await store.shutdown()
    }

    @Test("moveAsideIfUnreadable moves a damaged row to the unreadable table and names where; a readable row stays")
    func moveAsideIfUnreadable() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        #expect(try await store.moveAsideIfUnreadable() == nil)
        let credentials = TestDatabase.credentials()
        try await store.save(credentials)
        #expect(try await store.moveAsideIfUnreadable() == nil)
        #expect(try await store.load() == credentials)

        try await TestDatabase.execute("UPDATE \"\(table)\" SET credentials = substring(credentials from 1 for 30)")
        let damaged = try await TestDatabase.rowBytes(table: table)
        let place = try #require(try await store.moveAsideIfUnreadable())
        #expect(place.contains("table \(table)_unreadable, id "), "\(place)")
        #expect(!place.contains(TestDatabase.password))
        #expect(try await TestDatabase.rowBytes(table: table).isEmpty)
        #expect(try await TestDatabase.rowBytes(table: table, unreadable: true) == damaged)
        #expect(try await store.load() == nil)
        await store.shutdown()
    }

    /// A sealer under the tests' key 1 that binds nothing: what the store wrote before rows were bound.
    static func unboundSealer() async throws -> CredentialsSealer {
        try await CredentialsSealer.encrypted(key: TestDatabase.key(1), location: "an unbound row")
    }
}
