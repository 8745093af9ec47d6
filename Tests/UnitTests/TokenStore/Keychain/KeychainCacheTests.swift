import Foundation
import Testing
import AppSDKTesting
import TokenStore

@Suite("The Keychain store answers a load from memory while the change marker is unchanged, and sees every save")
struct KeychainCacheTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()

    @Test("with an App Group, loads after a save make no Keychain read until another store saves or clears")
    func unchangedMarkerMakesNoRead() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let store = KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            let other = KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            let first = TokenStoreTesting.credentials("first")
            try await store.save(first)
            let readsAfterSave = keychain.reads
            for _ in 0..<5 { #expect(try await store.load() == first) }
            #expect(keychain.reads == readsAfterSave)
            // Another store (another process, say) saves: the next load reads it, once.
            let second = TokenStoreTesting.credentials("second")
            try await other.save(second)
            let readsAfterOtherSave = keychain.reads
            #expect(try await store.load() == second)
            #expect(try await store.load() == second)
            #expect(keychain.reads == readsAfterOtherSave + 1)
            // A clear elsewhere is seen too.
            try await other.clear()
            #expect(try await store.load() == nil)
            #expect(try await store.load() == nil)
        }
    }

    @Test("the marker is the lock file's contents, new on every save")
    func markerLivesInTheLockFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let store = KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            let lockFile = try #require(store.lockFileURL)
            try await store.save(TokenStoreTesting.credentials())
            let first = try TokenStoreTesting.bytes(at: lockFile)
            try await store.save(TokenStoreTesting.credentials())
            let second = try TokenStoreTesting.bytes(at: lockFile)
            #expect(first.count == 32 && second.count == 32)
            #expect(first != second)
        }
    }

    @Test("a save by another process that bypasses the lock file is not seen: the marker is the only signal")
    func markerIsTheSignal() async throws {
        try await TokenStoreTesting.withTemporaryFolder { container in
            let store = KeychainTokenStore(service: service, groupContainer: .success(container), keychain: keychain)
            let first = TokenStoreTesting.credentials("first")
            try await store.save(first)
            let second = TokenStoreTesting.credentials("second")
            try await KeychainTokenStore(service: service, keychain: keychain).save(second)  // no lock file
            #expect(try await store.load() == first)
            // Any new marker (what a store on the lock file writes) makes the next load read.
            try TokenStoreTesting.write(Array(String(repeating: "0", count: 32).utf8), to: try #require(store.lockFileURL))
            #expect(try await store.load() == second)
        }
    }

    @Test("without a lock file, two stores of this process on one item see each other's saves, and reads are cached")
    func processWideMarker() async throws {
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let other = KeychainTokenStore(service: service, keychain: keychain)
        try await store.save(TokenStoreTesting.credentials("first"))
        let reads = keychain.reads
        _ = try await store.load()
        #expect(keychain.reads == reads)
        let second = TokenStoreTesting.credentials("second")
        try await other.save(second)
        #expect(try await store.load() == second)
    }

    @Test("an item in an access group without a lock file is read on every load (another process may write it unseen)")
    func accessGroupWithoutLockFileIsNotCached() async throws {
        let store = KeychainTokenStore(service: service, accessGroup: "TEAMID.com.example.app", keychain: keychain)
        try await store.save(TokenStoreTesting.credentials())
        let reads = keychain.reads
        _ = try await store.load()
        _ = try await store.load()
        #expect(keychain.reads == reads + 2)
    }
}
