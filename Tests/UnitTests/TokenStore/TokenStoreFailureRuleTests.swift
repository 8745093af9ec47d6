import Foundation
import Testing
import TokenStore

@Suite("Token stores refuse unreadable files and never overwrite them silently")
struct TokenStoreFailureRuleTests {
    /// Every store type the failure rules apply to, opened on `url`.
    private func fileStores(at url: URL, keyFolder: URL) async throws -> [(name: String, store: any TokenStore)] {
        var stores: [(name: String, store: any TokenStore)] = [("plain", FileTokenStore(fileURL: url))]
        #if EncryptedTokenStore
        stores.append(("passphrase", try await EncryptedFileTokenStore(
            fileURL: url, key: .passphrase("p", derivation: .cheapForTests))))
        stores.append(("key file", try await EncryptedFileTokenStore(
            fileURL: url, key: .keyFile(keyFolder.appendingPathComponent("key")))))
        #endif
        return stores
    }

    /// Loads `url` with `store`, expecting `kind`, and checks that nothing on disk changed.
    private func expectRefused(
        _ store: any TokenStore, url: URL, kind: TokenStoreError.Kind, mentioning words: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let folder = url.deletingLastPathComponent()
        let before = try TokenStoreTesting.bytes(at: url)
        let listing = try TokenStoreTesting.contents(of: folder)
        let error = await TokenStoreTesting.expectStoreError({ _ = try await store.load() }, sourceLocation: sourceLocation)
        #expect(error?.kind == kind, "\(store)", sourceLocation: sourceLocation)
        #expect(error?.path == url.path, sourceLocation: sourceLocation)
        #expect(error?.description.contains(url.path) == true, sourceLocation: sourceLocation)
        for word in words {
            #expect(error?.description.contains(word) == true, "\(error?.description ?? "") should mention \(word)", sourceLocation: sourceLocation)
        }
        #expect(try TokenStoreTesting.bytes(at: url) == before, "the file must be unchanged", sourceLocation: sourceLocation)
        #expect(try TokenStoreTesting.contents(of: folder) == listing, "nothing may be added or removed", sourceLocation: sourceLocation)
    }

    @Test("An empty file is an unreadable-file error for every file store")
    func emptyFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            try TokenStoreTesting.write([], to: url)
            for (_, store) in try await fileStores(at: url, keyFolder: folder) {
                try await expectRefused(store, url: url, kind: .unreadable, mentioning: ["empty"])
            }
        }
    }

    @Test("A file that is not JSON, truncated JSON, or JSON without credentials is refused by the plain store")
    func notCredentials() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            try await store.save(TokenStoreTesting.credentials())
            let valid = try TokenStoreTesting.bytes(at: url)
            for bytes in [Array("hello".utf8), Array(valid.prefix(valid.count / 2)), Array("{}".utf8),
                          Array(#"{"version":1,"credentials":{"accessToken":"x"}}"#.utf8)] {
                try TokenStoreTesting.write(bytes, to: url)
                try await expectRefused(store, url: url, kind: .unreadable)
            }
        }
    }

    @Test("A plain file of an unknown format version is refused as such")
    func unknownVersion() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            try TokenStoreTesting.write(Array(#"{"version":3,"credentials":{}}"#.utf8), to: url)
            try await expectRefused(FileTokenStore(fileURL: url), url: url, kind: .unsupportedFormatVersion, mentioning: ["version 3"])
        }
    }

    #if EncryptedTokenStore
    @Test("A plain store pointed at an encrypted file says it is encrypted, and leaves it alone")
    func plainStoreOnEncryptedFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
                .save(TokenStoreTesting.credentials())
            try await expectRefused(FileTokenStore(fileURL: url), url: url, kind: .unreadable, mentioning: ["encrypted"])
        }
    }

    @Test("An encrypted store pointed at a plain file says it is plain, and leaves it alone")
    func encryptedStoreOnPlainFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            try await FileTokenStore(fileURL: url).save(TokenStoreTesting.credentials())
            for (name, store) in try await fileStores(at: url, keyFolder: folder) where name != "plain" {
                try await expectRefused(store, url: url, kind: .unreadable, mentioning: ["plain"])
            }
        }
    }

    @Test("A wrong passphrase fails to decrypt, naming the file and the likely causes")
    func wrongPassphrase() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("right", derivation: .cheapForTests))
                .save(TokenStoreTesting.credentials())
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("wrong", derivation: .cheapForTests))
            try await expectRefused(store, url: url, kind: .decryptionFailed,
                                    mentioning: ["wrong key or passphrase, or the file was modified"])
        }
    }

    @Test("A wrong key file, or a key where a passphrase was used, fails to decrypt")
    func wrongKey() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(folder.appendingPathComponent("right.key")))
                .save(TokenStoreTesting.credentials())
            let wrongKeyFile = try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(folder.appendingPathComponent("other.key")))
            try await expectRefused(wrongKeyFile, url: url, kind: .decryptionFailed)
            let passphrase = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
            try await expectRefused(passphrase, url: url, kind: .decryptionFailed)

            try await passphrase.save(TokenStoreTesting.credentials("by passphrase"))
            try await expectRefused(wrongKeyFile, url: url, kind: .decryptionFailed)
        }
    }
    #endif

    @Test("Saving over an unreadable file moves it aside, byte for byte, then saves")
    func saveMovesAside() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            let garbage = Array("not credentials".utf8)
            for (_, store) in try await fileStores(at: url, keyFolder: folder) {
                try TokenStoreTesting.write(garbage, to: url)
                let credentials = TokenStoreTesting.credentials()
                try await store.save(credentials)
                #expect(try await store.load() == credentials)
                let aside = try TokenStoreTesting.contents(of: folder).filter { $0.hasPrefix("tokens.unreadable-") }
                #expect(aside.count == 1)
                for name in aside {
                    #expect(try TokenStoreTesting.bytes(at: folder.appendingPathComponent(name)) == garbage)
                    try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
                try await store.clear()
            }
        }
    }

    @Test("Clearing an unreadable file moves it aside instead of deleting it")
    func clearMovesAside() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            let garbage = Array("{\"version\":1".utf8)
            for (_, store) in try await fileStores(at: url, keyFolder: folder) {
                try TokenStoreTesting.write(garbage, to: url)
                try await store.clear()
                #expect(try await store.load() == nil)
                let aside = try TokenStoreTesting.contents(of: folder).filter { $0.hasPrefix("tokens.unreadable-") }
                #expect(aside.count == 1)
                for name in aside {
                    #expect(try TokenStoreTesting.bytes(at: folder.appendingPathComponent(name)) == garbage)
                    try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
        }
    }

    @Test("Two unreadable files moved aside in the same second are both kept")
    func moveAsideKeepsBoth() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            try TokenStoreTesting.write(Array("one".utf8), to: url)
            try await store.clear()
            try TokenStoreTesting.write(Array("two".utf8), to: url)
            try await store.clear()
            let aside = try TokenStoreTesting.contents(of: folder).filter { $0.hasPrefix("tokens.json.unreadable-") }
            #expect(aside.count == 2)
            let contents = try Set(aside.map { String(decoding: try TokenStoreTesting.bytes(at: folder.appendingPathComponent($0)), as: UTF8.self) })
            #expect(contents == ["one", "two"])
        }
    }
}
