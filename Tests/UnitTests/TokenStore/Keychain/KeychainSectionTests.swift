import Foundation
import Testing
import AppSDKTesting
import TokenStore

@Suite("Keychain stores take turns: through the App Group's lock file, held inside a background activity")
struct KeychainSectionTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()

    /// Increments the count in the store `rounds` times inside the section, from `tasks` tasks
    /// at once, each with its own store from `makeStore`; returns the final count.
    func increment(tasks: Int, rounds: Int, _ makeStore: @escaping @Sendable () -> KeychainTokenStore) async throws -> Int {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    let store = makeStore()
                    for _ in 0..<rounds {
                        try await store.withExclusiveAccess {
                            let count = try TokenStoreTesting.probeCount(try await store.load())
                            await Task.yield()
                            try await store.save(TokenStoreTesting.probeCredentials(count: count + 1))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return try TokenStoreTesting.probeCount(try await makeStore().load())
    }

    @Test("with an App Group, the lock file is TokenStore/<service>-<account>.lock in the group's container")
    func lockFileInTheContainer() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let store = KeychainTokenStore(service: "com.example/app", account: "me", groupContainer: .success(container), keychain: keychain)
            #expect(store.lockFileURL?.path == container.appendingPathComponent("TokenStore/com.example_app-me.lock").path)
            try await store.save(TokenStoreTesting.credentials())
            #expect(try TokenStoreTesting.contents(of: container.appendingPathComponent("TokenStore")) == ["com.example_app-me.lock"])
            // A lock file of the caller's choice wins.
            let chosen = container.appendingPathComponent("mine.lock")
            let other = KeychainTokenStore(service: service, groupContainer: .success(container), lockFileURL: chosen, keychain: keychain)
            #expect(other.lockFileURL == chosen)
        }
    }

    @Test("four stores on one App Group, each in its own task, incrementing 50 times inside the section lose no update")
    func storesOfOneGroupTakeTurns() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let (keychain, service) = (self.keychain, self.service)
            let final = try await increment(tasks: 4, rounds: 50) {
                KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            }
            #expect(final == 200)
        }
    }

    @Test("without a lock file, stores of this process on one item take turns too")
    func storesOfOneProcessTakeTurns() async throws {
        let (keychain, service) = (self.keychain, self.service)
        let final = try await increment(tasks: 4, rounds: 50) { KeychainTokenStore(service: service, keychain: keychain) }
        #expect(final == 200)
    }

    @Test("an App Group without a container fails the section with lockFailed, naming the group")
    func missingContainer() async throws {
        let missing = TokenStoreError(kind: .lockFailed, path: "group.com.example.shared", reason: "the App Group has no container")
        let store = KeychainTokenStore(service: service, groupContainer: .failure(missing), keychain: keychain)
        let error = await TokenStoreTesting.expectStoreError { try await store.save(TokenStoreTesting.credentials()) }
        #expect(error?.kind == .lockFailed)
        #expect(error?.path == "group.com.example.shared")
        let section = await TokenStoreTesting.expectStoreError { try await store.withExclusiveAccess {} }
        #expect(section?.kind == .lockFailed)
        #expect(keychain.accounts(service: service).isEmpty)
    }

    @Test("the background activity begins before the section and ends after it, once for nested sections and saves")
    func activityAroundTheSection() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let recorded = RecordedActivity()
            let store = KeychainTokenStore(
                service: service, groupContainer: .success(container),
                options: .init(backgroundActivity: recorded.activity), keychain: keychain)
            try await store.withExclusiveAccess {
                #expect(recorded.begun == 1 && recorded.ended == 0)
                try await store.save(TokenStoreTesting.credentials())
                try await store.withExclusiveAccess {}
                #expect(recorded.begun == 1 && recorded.ended == 0)
            }
            #expect(recorded.begun == 1 && recorded.ended == 1)
            try await store.save(TokenStoreTesting.credentials())   // a save alone holds the lock file too
            #expect(recorded.begun == 2 && recorded.ended == 2)
        }
    }

    @Test("when time is up inside the section, the work is cancelled, the lock released, and a bare cancellation is transient")
    func timeUpInsideTheSection() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let recorded = RecordedActivity()
            let store = KeychainTokenStore(
                service: service, groupContainer: .success(container),
                options: .init(backgroundActivity: recorded.activity), keychain: keychain)
            let entered = AsyncStream<Void>.makeStream()
            let section = Task {
                try await store.withExclusiveAccess {
                    entered.continuation.yield()
                    try await Task.sleep(for: .seconds(60))   // a refresh that never answers
                }
            }
            for await _ in entered.stream { break }
            recorded.expire()
            let error = try await TokenStoreTesting.withDeadline(seconds: 10, "the section after time up") {
                await TokenStoreTesting.expectStoreError { try await section.value }
            }
            #expect(error?.kind == .unavailable)
            #expect(error?.isTransient == true)
            #expect(recorded.ended == 1)
            // The lock is free again: another store of the group enters at once.
            let other = KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            try await TokenStoreTesting.withDeadline(seconds: 10, "the next section") { try await other.withExclusiveAccess {} }
        }
    }

    @Test("when time is up before the section is entered, the work never starts")
    func timeUpBeforeTheSection() async throws {
        let recorded = RecordedActivity(expiresAtOnce: true)
        let store = KeychainTokenStore(service: service, options: .init(backgroundActivity: recorded.activity), keychain: keychain)
        let ran = LockedValue(false)
        let error = await TokenStoreTesting.expectStoreError { try await store.withExclusiveAccess { ran.withLock { $0 = true } } }
        #expect(error?.kind == .unavailable)
        #expect(ran.withLock { $0 } == false)
        #expect(recorded.ended == 1)
    }

    @Test("work that finishes despite time up keeps its result, and what it throws is passed on as it is")
    func workThatFinishesKeepsItsResult() async throws {
        let recorded = RecordedActivity()
        let store = KeychainTokenStore(service: service, options: .init(backgroundActivity: recorded.activity), keychain: keychain)
        let value = try await store.withExclusiveAccess { () -> Int in
            recorded.expire()
            return 42
        }
        #expect(value == 42)
        await #expect(throws: TestFailure.self) {
            try await store.withExclusiveAccess { () -> Int in
                recorded.expire()
                throw TestFailure("the work's own error")
            }
        }
    }
}
