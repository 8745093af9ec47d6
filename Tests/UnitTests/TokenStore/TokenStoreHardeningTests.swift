import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TokenStore

@Suite("Token stores against odd files: FIFOs, symbolic links, forged headers, new salts")
struct TokenStoreHardeningTests {
    /// Loads with `store` on a thread of its own; if it has not finished after `seconds`, opens
    /// the FIFO at `fifo` for writing (which releases a reader blocked in `open`) and says so.
    private func loadWithoutHanging(_ store: any TokenStore, fifo: URL, seconds: Double = 5) async -> (hung: Bool, error: TokenStoreError?) {
        let result = TestMutex<TokenStoreError??>(nil)
        let task = Task.detached {
            do {
                _ = try await store.load()
                result.withLock { $0 = .some(nil) }
            } catch let error as TokenStoreError {
                result.withLock { $0 = .some(error) }
            } catch {
                result.withLock { $0 = .some(TokenStoreError(kind: .io, reason: "\(error)")) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(seconds)
        while result.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let hung = result.withLock { $0 } == nil
        if hung {
            let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        _ = await task.value
        return (hung, result.withLock { $0 } ?? nil)
    }

    @Test("a FIFO, or a link to one, in the store file's place is refused at once, not waited on")
    func fifoIsRefused() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let fifo = folder.appendingPathComponent("tokens.json")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let link = folder.appendingPathComponent("link.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fifo)
            var stores: [any TokenStore] = [FileTokenStore(fileURL: fifo), FileTokenStore(fileURL: link)]
            #if EncryptedTokenStore
            stores.append(try await EncryptedFileTokenStore(fileURL: link, key: .passphrase("p", derivation: .cheapForTests)))
            #endif
            for store in stores {
                let outcome = await loadWithoutHanging(store, fifo: fifo)
                #expect(!outcome.hung, "\(store) blocked on the FIFO")
                #expect(outcome.error?.kind == .unreadable, "\(store)")
                #expect(outcome.error?.description.contains("not a regular file") == true, "\(outcome.error?.description ?? "")")
            }
        }
    }

    @Test("saving through a symbolic link replaces its target atomically; the link stays a link")
    func symbolicLinkIsFollowed() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let target = folder.appendingPathComponent("real/tokens.json")
            let direct = FileTokenStore(fileURL: target)
            let first = TokenStoreTesting.credentials("first"), second = TokenStoreTesting.credentials("second")
            try await direct.save(first)
            let link = folder.appendingPathComponent("link.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

            let throughLink = FileTokenStore(fileURL: link)
            #expect(try await throughLink.load() == first)
            try await throughLink.save(second)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try await direct.load() == second)

            try await throughLink.clear()
            #expect(try await direct.load() == nil)
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target.path)
        }
    }

    #if EncryptedTokenStore
    @Test("a header claiming more Argon2id work than the SDK ever writes is refused before any key is derived")
    func forgedArgonParametersAreRefused() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
            try await store.save(TokenStoreTesting.credentials())
            var bytes = try TokenStoreTesting.bytes(at: url)
            for (offset, value) in [(10, UInt64(16)), (18, UInt64(1) << 30)] {   // opslimit 16, memlimit 1 GiB
                for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
            }
            try TokenStoreTesting.write(bytes, to: url)
            let reader = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
            let start = ContinuousClock.now
            let error = await TokenStoreTesting.expectStoreError({ _ = try await reader.load() })
            #expect(error?.kind == .unreadable)
            #expect(error?.description.contains("out of the accepted range") == true)
            #expect(reader.keyDerivationCount == 0)
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }

    @Test("the largest Argon2id cost a store accepts is the SDK's moderate preset")
    func argonCeiling() {
        #expect(EncryptedFileTokenStore.KeyDerivation.acceptedOpsLimits.upperBound == EncryptedFileTokenStore.KeyDerivation.moderate.opsLimit)
        #expect(EncryptedFileTokenStore.KeyDerivation.acceptedMemoryLimits.upperBound == EncryptedFileTokenStore.KeyDerivation.moderate.memoryLimit)
    }

    @Test("concurrent loads of a file another process rewrote with a new salt derive its key once")
    func newSaltDerivedOnce() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let derivation = EncryptedFileTokenStore.KeyDerivation(opsLimit: 1, memoryLimit: 1 << 20)
            let reader = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: derivation))
            // Another process (another store, another salt) writes the file.
            let writer = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: derivation))
            let other = TokenStoreTesting.credentials("other")
            try await writer.save(other)
            try await withThrowingTaskGroup(of: Credentials?.self) { group in
                for _ in 0..<8 { group.addTask { try await reader.load() } }
                for try await loaded in group { #expect(loaded == other) }
            }
            #expect(reader.keyDerivationCount == 1)
        }
    }
    #endif
}

@Suite("Token stores keep the last decoded file and still see every write")
struct TokenStoreCacheTests {
    @Test("a write through another store on the same file (as by another process) is seen by the next load", arguments: ["plain", "encrypted"])
    func writesByOthersAreSeen(kind: String) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            func open() async throws -> any TokenStore {
                #if EncryptedTokenStore
                if kind == "encrypted" {
                    return try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(folder.appendingPathComponent("key")))
                }
                #endif
                return FileTokenStore(fileURL: url)
            }
            let first = try await open(), second = try await open()
            let values = (0..<4).map { TokenStoreTesting.credentials("v\($0)") }
            try await first.save(values[0])
            #expect(try await second.load() == values[0])
            #expect(try await second.load() == values[0])
            try await first.save(values[1])
            #expect(try await second.load() == values[1])
            try await second.save(values[2])
            #expect(try await first.load() == values[2])
            try await first.clear()
            #expect(try await second.load() == nil)
            try await second.save(values[3])
            #expect(try await first.load() == values[3])
            // Bytes written behind the store's back that are not a store file are refused, not served from memory.
            try TokenStoreTesting.write(Array("garbage".utf8), to: url)
            await #expect(throws: TokenStoreError.self) { _ = try await first.load() }
        }
    }
}
