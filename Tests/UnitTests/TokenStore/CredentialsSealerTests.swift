import Foundation
import Testing
import TokenStore

@Suite("CredentialsSealer seals credentials in the file stores' formats")
struct CredentialsSealerTests {
    @Test("plain bytes are the JSON a FileTokenStore writes, and a FileTokenStore reads them")
    func plainIsTheFileStoreFormat() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let credentials = TokenStoreTesting.credentials()
            let sealer = CredentialsSealer.plain(location: "test row")
            let bytes = try sealer.seal(credentials)
            #expect(!sealer.isEncrypted)
            #expect(try await sealer.open(bytes) == credentials)

            let url = folder.appendingPathComponent("tokens.json")
            try TokenStoreTesting.write(bytes, to: url)
            #expect(try await FileTokenStore(fileURL: url).load() == credentials)
        }
    }

    @Test("plain bytes that are not credentials are unreadable, naming the location")
    func plainGarbageIsUnreadable() async throws {
        let sealer = CredentialsSealer.plain(location: "db tokens/kim")
        await #expect(throws: TokenStoreError.self) { _ = try await sealer.open(Array("not json".utf8)) }
        do {
            _ = try await sealer.open(Array("{\"version\":1}".utf8))
            Issue.record("opened credentials without fields")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.path == "db tokens/kim")
        }
    }

    #if EncryptedTokenStore
    @Test("encrypted bytes open with the same key, hold no token text, and differ on every seal")
    func encryptedRoundTrip() async throws {
        let key = EncryptedFileTokenStore.KeySource.rawKey([UInt8](repeating: 7, count: 32))
        let sealer = try await CredentialsSealer.encrypted(key: key, location: "row")
        let credentials = TokenStoreTesting.credentials()
        let first = try sealer.seal(credentials)
        let second = try sealer.seal(credentials)
        #expect(sealer.isEncrypted)
        #expect(first != second, "a fresh nonce for every seal")
        #expect(try await sealer.open(first) == credentials)
        let text = String(decoding: first, as: UTF8.self)
        #expect(!text.contains(credentials.accessToken.rawValue) && !text.contains(credentials.refreshToken))
        #expect(!text.contains("secret-"))
    }

    @Test("bytes sealed with one key are decryptionFailed under another")
    func wrongKeyIsDecryptionFailed() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: .rawKey([UInt8](repeating: 1, count: 32)), location: "row")
        let other = try await CredentialsSealer.encrypted(key: .rawKey([UInt8](repeating: 2, count: 32)), location: "row")
        let bytes = try sealer.seal(TokenStoreTesting.credentials())
        do {
            _ = try await other.open(bytes)
            Issue.record("opened with the wrong key")
        } catch {
            #expect(error.kind == .decryptionFailed)
            #expect(error.path == "row")
        }
    }

    @Test("every flipped byte is refused")
    func everyFlippedByteIsRefused() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: .rawKey([UInt8](repeating: 3, count: 32)), location: "row")
        let bytes = try sealer.seal(TokenStoreTesting.credentials())
        for index in bytes.indices {
            var modified = bytes
            modified[index] ^= 0x01
            await #expect(throws: TokenStoreError.self, "byte \(index)") { _ = try await sealer.open(modified) }
        }
        await #expect(throws: TokenStoreError.self) { _ = try await sealer.open(Array(bytes.prefix(40))) }
    }

    @Test("an encrypted file store and a sealer with the same key read each other's bytes")
    func sameFormatAsTheEncryptedFileStore() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("key")
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(keyURL))
            let sealer = try await CredentialsSealer.encrypted(key: .keyFile(keyURL), location: "row")

            let fromStore = TokenStoreTesting.credentials("store")
            try await store.save(fromStore)
            #expect(try await sealer.open(TokenStoreTesting.bytes(at: url)) == fromStore)

            let fromSealer = TokenStoreTesting.credentials("sealer")
            try TokenStoreTesting.write(try sealer.seal(fromSealer), to: url)
            #expect(try await store.load() == fromSealer)
        }
    }

    @Test("a passphrase sealer opens bytes another one sealed with its own salt")
    func passphraseSealersAgree() async throws {
        let derivation = EncryptedFileTokenStore.KeyDerivation(opsLimit: 1, memoryLimit: 8192)
        let first = try await CredentialsSealer.encrypted(key: .passphrase("correct horse", derivation: derivation), location: "row")
        let second = try await CredentialsSealer.encrypted(key: .passphrase("correct horse", derivation: derivation), location: "row")
        let credentials = TokenStoreTesting.credentials()
        #expect(try await second.open(first.seal(credentials)) == credentials)
        let wrong = try await CredentialsSealer.encrypted(key: .passphrase("wrong horse", derivation: derivation), location: "row")
        await #expect(throws: TokenStoreError.self) { _ = try await wrong.open(first.seal(credentials)) }
    }

    @Test("plain JSON given to an encrypted sealer is unreadable, not decrypted")
    func plainBytesToAnEncryptedSealer() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: .rawKey([UInt8](repeating: 4, count: 32)), location: "row")
        let plain = try CredentialsSealer.plain(location: "row").seal(TokenStoreTesting.credentials())
        do {
            _ = try await sealer.open(plain)
            Issue.record("opened plain bytes")
        } catch {
            #expect(error.kind == .unreadable)
        }
    }

    @Test("descriptions name the kind of key, never the key or a token")
    func descriptionsHoldNoSecret() async throws {
        let passphrase = "a passphrase nobody may print"
        let derivation = EncryptedFileTokenStore.KeyDerivation(opsLimit: 1, memoryLimit: 8192)
        let sealer = try await CredentialsSealer.encrypted(key: .passphrase(passphrase, derivation: derivation), location: "row")
        var dumped = ""
        dump(sealer, to: &dumped)
        for text in [sealer.description, String(reflecting: sealer), dumped] {
            #expect(!text.contains(passphrase))
        }
        #expect(sealer.description.hasPrefix("CredentialsSealer(encrypted, key: passphrase"))
        #expect(CredentialsSealer.plain(location: "x").description == "CredentialsSealer(plain)")
    }

    @Test("a key of the wrong length is invalidKey")
    func wrongKeyLength() async throws {
        do {
            _ = try await CredentialsSealer.encrypted(key: .rawKey([1, 2, 3]), location: "row")
            Issue.record("accepted a 3-byte key")
        } catch {
            #expect(error.kind == .invalidKey)
        }
    }
    #endif

    @Test("only unavailable is transient")
    func transientKinds() {
        #expect(TokenStoreError(kind: .unavailable, reason: "down").isTransient)
        for kind in [TokenStoreError.Kind.io, .lockFailed, .decryptionFailed, .unreadable] {
            #expect(!TokenStoreError(kind: kind, reason: "x").isTransient)
        }
    }
}
