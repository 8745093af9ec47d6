import Foundation
import PostgresNIO
@testable import PostgresTokenStore
import Testing
import TokenStore

@Suite("The exclusive section is a PostgreSQL advisory lock", .postgres)
struct ExclusiveAccessTests {
    @Test("two stores on separate connections never run their sections at the same time")
    func serializesTwoStores() async throws {
        let table = TestDatabase.uniqueTable()
        let first = try await TestDatabase.store(table: table)
        let second = try await TestDatabase.store(table: table)
        let inside = Shared((now: 0, most: 0, entries: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                for _ in 0..<5 {
                    group.addTask {
                        try await store.withExclusiveAccess {
                            inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.entries += 1 }
                            try await Task.sleep(for: .milliseconds(20))
                            inside.withLock { $0.now -= 1 }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.current.entries == 10)
        #expect(inside.current.most == 1)
        await first.shutdown()
        await second.shutdown()
    }

    @Test("a section held past the lock timeout gives lockFailed to the one waiting")
    func lockTimeout() async throws {
        let table = TestDatabase.uniqueTable()
        let holder = try await TestDatabase.store(table: table)
        let waiter = try await TestDatabase.store(table: table, lockTimeout: .milliseconds(500))
        let entered = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await holder.withExclusiveAccess {
                entered.continuation.yield()
                try await Task.sleep(for: .seconds(3))
            }
        }
        for await _ in entered.stream { break }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await waiter.withExclusiveAccess {}
            Issue.record("entered a section another store held")
        } catch let error as TokenStoreError {
            #expect(error.kind == .lockFailed)
            #expect(!error.isTransient)
        }
        let waited = clock.now - start
        #expect(waited >= .milliseconds(500) && waited < .seconds(3))
        try await holding.value
        try await waiter.withExclusiveAccess {}   // free again
        await holder.shutdown()
        await waiter.shutdown()
    }

    @Test("a waiter waits in one pg_advisory_lock query that PostgreSQL wakes, not in a loop of tries")
    func waiterDoesNotPoll() async throws {
        let table = TestDatabase.uniqueTable()
        let holder = try await TestDatabase.store(table: table)
        let waiter = try await TestDatabase.store(table: table, lockTimeout: .seconds(30))
        let entered = AsyncStream.makeStream(of: Void.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await holder.withExclusiveAccess {
                entered.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in entered.stream { break }
        let waiting = Task { try await waiter.withExclusiveAccess {} }
        // The waiting query, as PostgreSQL sees it: one backend blocked on a lock since the
        // same moment, 300 ms apart (tries in a loop would each be a new, short query).
        func blockedQueries() async throws -> [String] {
            let key = UInt64(bitPattern: AdvisoryLockKey.make(table: table, account: "kim"))
            return try await TestDatabase.withConnection { connection in
                var binds = PostgresBindings()
                binds.append(Int64(key >> 32))
                binds.append(Int64(key & 0xffff_ffff))
                let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT a.pid::text || ' ' || a.query_start::text FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
                    WHERE l.locktype = 'advisory' AND NOT l.granted AND l.classid::int8 = $1 AND l.objid::int8 = $2
                      AND a.state = 'active' AND a.query LIKE 'SELECT pg_advisory_lock(%'
                    """, binds: binds), logger: connection.logger)
                var found: [String] = []
                for try await value in rows.decode(String.self) { found.append(value) }
                return found
            }
        }
        var first: [String] = []
        for _ in 0..<100 where first.isEmpty {
            first = try await blockedQueries()
            if first.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(first.count == 1, "blocked waiting queries: \(first.count)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await blockedQueries() == first)
        release.continuation.yield()
        try await holding.value
        try await waiting.value
        await holder.shutdown()
        await waiter.shutdown()
    }

    @Test("a holder whose connection dies releases the section, and its own calls fail as unavailable")
    func deadHolderReleases() async throws {
        let table = TestDatabase.uniqueTable()
        let holder = try await TestDatabase.store(table: table)
        let waiter = try await TestDatabase.store(table: table, lockTimeout: .seconds(10))
        let entered = AsyncStream.makeStream(of: Void.self)
        let goOn = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await holder.withExclusiveAccess {
                entered.continuation.yield()
                for await _ in goOn.stream { break }
                return try await holder.load()
            }
        }
        for await _ in entered.stream { break }
        #expect(try await TestDatabase.terminateLockHolders(table: table) == 1)

        let clock = ContinuousClock()
        let start = clock.now
        try await waiter.withExclusiveAccess {
            try await waiter.save(TestDatabase.credentials("waiter"))
        }
        #expect(clock.now - start < .seconds(5), "the waiter got in only when the holder's section ended")
        #expect(try await waiter.load()?.accountID == "member-waiter")

        goOn.continuation.yield()
        do {
            _ = try await holding.value
            Issue.record("the holder loaded over a connection that was ended")
        } catch let error as TokenStoreError {
            #expect(error.kind == .unavailable)
        }
        #expect(try await holder.load()?.accountID == "member-waiter", "a new connection works")
        await holder.shutdown()
        await waiter.shutdown()
    }

    @Test("a nested section of the same task runs directly, and loads and saves inside use its connection")
    func nestedSectionRunsDirectly() async throws {
        let store = try await TestDatabase.store(table: TestDatabase.uniqueTable(), lockTimeout: .seconds(1))
        let credentials = TestDatabase.credentials()
        let loaded = try await store.withExclusiveAccess {
            try await store.withExclusiveAccess {
                try await store.save(credentials)
                async let fromChild = store.load()
                try await store.withExclusiveAccess { try await store.clear() }
                try await store.save(credentials)
                return try await fromChild
            }
        }
        #expect(loaded == nil || loaded == credentials)
        #expect(try await store.load() == credentials)
        await store.shutdown()
    }

    @Test("a task started inside a section that outlives it waits like everyone else")
    func outlivingTaskWaits() async throws {
        let store = try await TestDatabase.store(table: TestDatabase.uniqueTable())
        let inside = Shared((now: 0, most: 0, entries: 0))
        @Sendable func occupy() async throws {
            inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.entries += 1 }
            try await Task.sleep(for: .milliseconds(300))
            inside.withLock { $0.now -= 1 }
        }
        let late = try await store.withExclusiveAccess {
            Task {
                try await Task.sleep(for: .milliseconds(100))
                try await store.withExclusiveAccess { try await occupy() }
            }
        }
        try await store.withExclusiveAccess { try await occupy() }
        try await late.value
        #expect(inside.current.entries == 2)
        #expect(inside.current.most == 1, "the late task entered while another section ran")
        await store.shutdown()
    }

    @Test("cancelling a task waiting for the section stops the wait with CancellationError")
    func cancelledWaiter() async throws {
        let table = TestDatabase.uniqueTable()
        let holder = try await TestDatabase.store(table: table)
        let waiter = try await TestDatabase.store(table: table)
        let entered = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await holder.withExclusiveAccess {
                entered.continuation.yield()
                try await Task.sleep(for: .seconds(2))
            }
        }
        for await _ in entered.stream { break }
        let waiting = Task { try await waiter.withExclusiveAccess { "entered" } }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        try await holding.value
        try await waiter.withExclusiveAccess {}   // not left taken by the wait that was ended
        await holder.shutdown()
        await waiter.shutdown()
    }

    @Test("errors thrown by the body come out as they are, and the section is free afterwards")
    func bodyErrorsPassThrough() async throws {
        struct Marker: Error {}
        let store = try await TestDatabase.store(table: TestDatabase.uniqueTable(), lockTimeout: .seconds(1))
        await #expect(throws: Marker.self) { try await store.withExclusiveAccess { throw Marker() } }
        let other = try await TestDatabase.store(table: store.options.table, lockTimeout: .seconds(1))
        try await other.withExclusiveAccess {}
        await store.shutdown()
        await other.shutdown()
    }
}
