import Foundation
import Testing
import TokenStore

@Suite("Token stores keep what they are given")
struct TokenStoreRoundTripTests {
    /// Saves, loads (also through a second instance), replaces, clears: the behaviour every store shares.
    private func checkRoundTrip(_ store: any TokenStore, reopened: () async throws -> any TokenStore) async throws {
        #expect(try await store.load() == nil)
        let first = TokenStoreTesting.credentials("first")
        try await store.save(first)
        #expect(try await store.load() == first)
        #expect(try await reopened().load() == first)

        let second = TokenStoreTesting.credentials("second", expires: nil)
        try await store.save(second)
        #expect(try await store.load() == second)
        #expect(try await reopened().load() == second)

        try await store.clear()
        #expect(try await store.load() == nil)
        #expect(try await reopened().load() == nil)
        try await store.clear()  // clearing nothing is fine
    }

    @Test("The in-memory store round-trips credentials and clears them")
    func inMemory() async throws {
        let store = InMemoryTokenStore()
        try await checkRoundTrip(store, reopened: { store })
        let seeded = TokenStoreTesting.credentials()
        #expect(try await InMemoryTokenStore(credentials: seeded).load() == seeded)
    }

    @Test("The file store round-trips credentials, exact expiry included, and clear deletes the file")
    func file() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            try await checkRoundTrip(store, reopened: { FileTokenStore(fileURL: url) })
            #expect(try TokenStoreTesting.contents(of: folder) == ["tokens.json.lock"])
        }
    }

    @Test("Loading a store whose file or folder does not exist gives no credentials")
    func missingFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("not/there/tokens.json")
            #expect(try await FileTokenStore(fileURL: url).load() == nil)
            try await FileTokenStore(fileURL: url).clear()
            #if EncryptedTokenStore
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 7, count: 32)))
            #expect(try await store.load() == nil)
            #endif
        }
    }

    #if EncryptedTokenStore
    @Test("The encrypted store round-trips with a passphrase")
    func passphrase() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let key = EncryptedFileTokenStore.KeySource.passphrase("correct horse battery staple", derivation: .cheapForTests)
            let store = try await EncryptedFileTokenStore(fileURL: url, key: key)
            try await checkRoundTrip(store, reopened: { try await EncryptedFileTokenStore(fileURL: url, key: key) })
        }
    }

    @Test("The encrypted store round-trips with a key file it creates with mode 0600")
    func keyFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("store/tokens.enc")
            let keyURL = folder.appendingPathComponent("keys/token.key")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(keyURL))
            #expect(try TokenStoreTesting.bytes(at: keyURL).count == 32)
            #expect(try TokenStoreTesting.mode(of: keyURL) == 0o600)
            #expect(try TokenStoreTesting.mode(of: keyURL.deletingLastPathComponent()) == 0o700)
            let keyBefore = try TokenStoreTesting.bytes(at: keyURL)
            try await checkRoundTrip(store, reopened: { try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(keyURL)) })
            #expect(try TokenStoreTesting.bytes(at: keyURL) == keyBefore, "an existing key file is reused, not replaced")
        }
    }

    @Test("The encrypted store round-trips with raw key bytes")
    func rawKey() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let key = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey(key))
            try await checkRoundTrip(store, reopened: { try await EncryptedFileTokenStore(fileURL: url, key: .rawKey(key)) })
        }
    }

    @Test("The encrypted store round-trips with libsodium's default (interactive) Argon2id parameters")
    func defaultParameters() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("a passphrase with the defaults"))
            let credentials = TokenStoreTesting.credentials()
            try await store.save(credentials)
            #expect(try await store.load() == credentials)
            // The header records the parameters: opslimit 2 and memlimit 64 MiB, little-endian.
            let bytes = try TokenStoreTesting.bytes(at: url)
            #expect(bytes[9] == 1)
            #expect(Array(bytes[10..<18]) == [2, 0, 0, 0, 0, 0, 0, 0])
            #expect(Array(bytes[18..<26]) == [0, 0, 0, 4, 0, 0, 0, 0])
        }
    }

    @Test("Every save uses a fresh nonce, so the same credentials never encrypt the same way twice")
    func freshNonce() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 1, count: 32)))
            let credentials = TokenStoreTesting.credentials()
            try await store.save(credentials)
            let first = try TokenStoreTesting.bytes(at: url)
            try await store.save(credentials)
            let second = try TokenStoreTesting.bytes(at: url)
            #expect(first[0..<42] == second[0..<42], "same header")
            #expect(first[42..<66] != second[42..<66], "different nonce")
            #expect(first[66...] != second[66...], "different ciphertext")
        }
    }

    @Test("Passphrase stores opened before the file existed read each other's saves")
    func passphraseStoresAgreeOnSalt() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let key = EncryptedFileTokenStore.KeySource.passphrase("shared passphrase", derivation: .cheapForTests)
            // Both open on a missing file, so each picks its own random salt.
            let first = try await EncryptedFileTokenStore(fileURL: url, key: key)
            let second = try await EncryptedFileTokenStore(fileURL: url, key: key)
            let a = TokenStoreTesting.credentials("a")
            try await first.save(a)
            #expect(try await second.load() == a)
            let b = TokenStoreTesting.credentials("b")
            try await second.save(b)
            #expect(try await first.load() == b)
            try await first.clear()
            let c = TokenStoreTesting.credentials("c")
            try await second.save(c)
            #expect(try await first.load() == c)
        }
    }

    @Test("Unusable keys are refused when the store opens")
    func invalidKeys() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let shortKey = await TokenStoreTesting.expectStoreError {
                _ = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 1, count: 31)))
            }
            #expect(shortKey?.kind == .invalidKey)
            let empty = await TokenStoreTesting.expectStoreError {
                _ = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("", derivation: .cheapForTests))
            }
            #expect(empty?.kind == .invalidKey)
            let outOfRange = await TokenStoreTesting.expectStoreError {
                _ = try await EncryptedFileTokenStore(
                    fileURL: url, key: .passphrase("p", derivation: .init(opsLimit: 1, memoryLimit: 1 << 40)))
            }
            #expect(outOfRange?.kind == .invalidKey)
            let keyURL = folder.appendingPathComponent("short.key")
            try TokenStoreTesting.write([UInt8](repeating: 1, count: 16), to: keyURL)
            let shortKeyFile = await TokenStoreTesting.expectStoreError {
                _ = try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(keyURL))
            }
            #expect(shortKeyFile?.kind == .invalidKey)
            #expect(shortKeyFile?.path == keyURL.path)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }
    #endif
}
