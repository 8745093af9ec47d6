import Foundation
import Testing
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Token stores stay consistent when tasks share them")
struct TokenStoreConcurrencyTests {
    enum Kind: String, CaseIterable, Sendable {
        case memory, plain, passphrase, keyFile
    }

    private func makeStore(_ kind: Kind, folder: URL) async throws -> (any TokenStore)? {
        let url = folder.appendingPathComponent("tokens")
        switch kind {
        case .memory: return InMemoryTokenStore()
        case .plain: return FileTokenStore(fileURL: url)
        #if EncryptedTokenStore
        case .passphrase:
            return try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
        case .keyFile:
            return try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(folder.appendingPathComponent("key")))
        #else
        case .passphrase, .keyFile: return nil
        #endif
        }
    }

    @Test("Many tasks saving at once leave a file that always loads whole", arguments: [Kind.plain, .passphrase, .keyFile])
    func concurrentSaves(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            guard let store = try await makeStore(kind, folder: folder) else { return }
            try await store.save(TokenStoreTesting.probeCredentials(count: 0))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 1...40 {
                    group.addTask { try await store.save(TokenStoreTesting.probeCredentials(count: writer)) }
                }
                for _ in 1...4 {
                    group.addTask {
                        for _ in 0..<25 {
                            let loaded = try await store.load()
                            #expect(loaded != nil)
                            _ = try TokenStoreTesting.probeCount(loaded)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try TokenStoreTesting.probeCount(try await store.load())
            #expect((1...40).contains(final))
            #expect(try TokenStoreTesting.contents(of: folder).allSatisfy { !$0.contains(".tmp-") }, "no temporary files left")
        }
    }

    @Test("Tasks incrementing inside the exclusive section lose no update", arguments: Kind.allCases)
    func exclusiveIncrements(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            guard let store = try await makeStore(kind, folder: folder) else { return }
            try await TokenStoreTesting.withDeadline(seconds: 30, "incrementing") {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            for _ in 0..<8 {
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
            }
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 80)
        }
    }

    @Test("Nested exclusive sections of the same task tree run directly instead of deadlocking", arguments: Kind.allCases)
    func nestedSections(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            guard let store = try await makeStore(kind, folder: folder) else { return }
            let depth = try await TokenStoreTesting.withDeadline(seconds: 10, "nested sections") {
                try await store.withExclusiveAccess {
                    try await store.save(TokenStoreTesting.probeCredentials(count: 1))  // save takes the section itself
                    async let child = store.withExclusiveAccess { try await store.withExclusiveAccess { 2 } }
                    let inner = try await store.withExclusiveAccess { 1 }
                    return try await inner + child
                }
            }
            #expect(depth == 3)
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
        }
    }

    @Test("Two store instances on the same file exclude each other")
    func twoInstances() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let first = FileTokenStore(fileURL: url)
            let second = FileTokenStore(fileURL: url)
            let log = Log()
            try await TokenStoreTesting.withDeadline(seconds: 10, "two instances") {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (name, store) in [("first", first), ("second", second)] {
                        group.addTask {
                            for _ in 0..<5 {
                                try await store.withExclusiveAccess {
                                    await log.append("\(name) in")
                                    try await Task.sleep(for: .milliseconds(2))
                                    await log.append("\(name) out")
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let entries = await log.entries
            #expect(entries.count == 20)
            for pair in stride(from: 0, to: entries.count, by: 2) {
                let name = entries[pair].split(separator: " ")[0]
                #expect(entries[pair] == "\(name) in" && entries[pair + 1] == "\(name) out", "sections overlapped: \(entries)")
            }
        }
    }

    @Test("A task cancelled while waiting for the exclusive section stops waiting")
    func cancelledWait() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let store = FileTokenStore(fileURL: folder.appendingPathComponent("tokens.json"))
            try await store.withExclusiveAccess {
                let waiter = Task.detached {
                    try await store.withExclusiveAccess { "entered" }
                }
                try await Task.sleep(for: .milliseconds(20))
                waiter.cancel()
                let result = await waiter.result
                #expect(throws: CancellationError.self) { try result.get() }
            }
        }
    }

    @Test("Waiting longer than the lock timeout for another process's section fails with lockFailed")
    func lockTimeout() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            // Another process's section: flock on the lock file through a descriptor of our own.
            let fd = open(url.path + ".lock", O_RDWR | O_CREAT, 0o600)
            #expect(fd >= 0)
            defer { close(fd) }
            #expect(flock(fd, LOCK_EX) == 0)
            let store = FileTokenStore(fileURL: url, options: .init(lockTimeout: .milliseconds(50)))
            let error = await TokenStoreTesting.expectStoreError {
                try await store.withExclusiveAccess { () }
            }
            #expect(error?.kind == .lockFailed)
            #expect(error?.path == url.path + ".lock")
            let saveError = await TokenStoreTesting.expectStoreError { try await store.save(TokenStoreTesting.credentials()) }
            #expect(saveError?.kind == .lockFailed)
            flock(fd, LOCK_UN)
            try await store.withExclusiveAccess { () }
        }
    }

    /// A list of events shared by tasks.
    private actor Log {
        private(set) var entries: [String] = []
        func append(_ entry: String) { entries.append(entry) }
    }
}
