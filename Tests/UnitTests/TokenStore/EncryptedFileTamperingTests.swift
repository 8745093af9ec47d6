#if EncryptedTokenStore
import Foundation
import Testing
import TokenStore

@Suite("An encrypted token store file detects every modification")
struct EncryptedFileTamperingTests {
    /// The regions of a version-1 file (see `EncryptedFileFormat`) and what modifying them gives.
    private static func regions(fileSize: Int, passphrase: Bool) -> [(name: String, range: Range<Int>, kinds: Set<TokenStoreError.Kind>)] {
        let parameterKinds: Set<TokenStoreError.Kind> = passphrase ? [.decryptionFailed, .unreadable] : [.decryptionFailed]
        return [
            ("magic", 0..<8, [.unreadable]),
            ("format version", 8..<9, [.unsupportedFormatVersion]),
            ("key derivation id", 9..<10, [.decryptionFailed, .unreadable]),
            ("opslimit", 10..<18, parameterKinds),
            ("memlimit", 18..<26, parameterKinds),
            ("salt", 26..<42, [.decryptionFailed]),
            ("nonce", 42..<66, [.decryptionFailed]),
            ("ciphertext", 66..<(fileSize - 16), [.decryptionFailed]),
            ("tag", (fileSize - 16)..<fileSize, [.decryptionFailed]),
        ]
    }

    /// Loads `bytes` written at `url` and expects one of `kinds`, with the file unchanged afterwards.
    private func expectRejected(
        _ bytes: [UInt8], store: EncryptedFileTokenStore, url: URL, kinds: Set<TokenStoreError.Kind>, _ what: String
    ) async throws {
        try TokenStoreTesting.write(bytes, to: url)
        let listing = try TokenStoreTesting.contents(of: url.deletingLastPathComponent())
        do {
            _ = try await store.load()
            Issue.record("\(what): loaded without an error")
        } catch {
            #expect(kinds.contains(error.kind), "\(what): \(error.kind) (\(error))")
            #expect(error.path == url.path, "\(what)")
        }
        #expect(try TokenStoreTesting.bytes(at: url) == bytes, "\(what): the file changed")
        #expect(try TokenStoreTesting.contents(of: url.deletingLastPathComponent()) == listing, "\(what): files added or removed")
    }

    private func checkTampering(key: EncryptedFileTokenStore.KeySource, passphrase: Bool) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: key)
            let credentials = TokenStoreTesting.credentials()
            try await store.save(credentials)
            let original = try TokenStoreTesting.bytes(at: url)

            for region in Self.regions(fileSize: original.count, passphrase: passphrase) {
                #expect(!region.range.isEmpty)
                for index in region.range {
                    var modified = original
                    modified[index] ^= 0x01
                    try await expectRejected(modified, store: store, url: url, kinds: region.kinds, "\(region.name) byte \(index)")
                }
            }
            for length in [0, 1, 4, 8, 9, 10, 26, 41, 42, 50, 65, 66, 81, original.count - 17, original.count - 16, original.count - 1] {
                try await expectRejected(Array(original.prefix(length)), store: store, url: url,
                                         kinds: [.unreadable, .decryptionFailed], "truncated to \(length) bytes")
            }
            try await expectRejected(original + [0], store: store, url: url, kinds: [.decryptionFailed], "one byte appended")

            // The untouched file still loads, with the same store: no failed attempt spoiled its key.
            try TokenStoreTesting.write(original, to: url)
            #expect(try await store.load() == credentials)
        }
    }

    @Test("Flipping any byte or truncating a passphrase-encrypted file gives a typed error and leaves the file unchanged")
    func passphraseFile() async throws {
        try await checkTampering(key: .passphrase("tamper test", derivation: .cheapForTests), passphrase: true)
    }

    @Test("Flipping any byte or truncating a key-encrypted file gives a typed error and leaves the file unchanged")
    func keyFile() async throws {
        try await checkTampering(key: .rawKey([UInt8](repeating: 0x5A, count: 32)), passphrase: false)
    }

    @Test("An unknown encrypted format version is reported as such")
    func unknownVersion() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 1, count: 32)))
            try await store.save(TokenStoreTesting.credentials())
            var bytes = try TokenStoreTesting.bytes(at: url)
            bytes[8] = 2
            try TokenStoreTesting.write(bytes, to: url)
            let error = await TokenStoreTesting.expectStoreError { _ = try await store.load() }
            #expect(error?.kind == .unsupportedFormatVersion)
            #expect(error?.description.contains("version 2") == true)
        }
    }
}
#endif
