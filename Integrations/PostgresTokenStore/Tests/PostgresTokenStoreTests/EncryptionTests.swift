import Foundation
import PostgresTokenStore
import Testing
import TokenStore

@Suite("Rows are encrypted before they leave the process", .postgres)
struct EncryptionTests {
    @Test("an encrypted row holds no token text and has the encrypted file format; a plain row is the JSON")
    func plainAndEncryptedRows() async throws {
        let table = TestDatabase.uniqueTable()
        let encrypted = try await TestDatabase.store(account: "sealed", table: table)
        let plain = try await TestDatabase.store(account: "plain", table: table, encryption: .plaintext)
        let credentials = TestDatabase.credentials()
        try await encrypted.save(credentials)
        try await plain.save(credentials)

        let sealedRow = try #require(try await TestDatabase.rowBytes(table: table, account: "sealed").first)
        let sealedText = String(decoding: sealedRow, as: UTF8.self)
        #expect(!sealedText.contains(credentials.accessToken.rawValue))
        #expect(!sealedText.contains(credentials.refreshToken))
        #expect(!sealedText.contains("secret-"))
        #expect(sealedRow.starts(with: [0x89, 0x54, 0x4B, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]))

        let plainRow = try #require(try await TestDatabase.rowBytes(table: table, account: "plain").first)
        #expect(String(decoding: plainRow, as: UTF8.self).contains(credentials.refreshToken))
        #expect(try await plain.load() == credentials)
        await encrypted.shutdown()
        await plain.shutdown()
    }

    @Test("a row is the encrypted format bound to its place (version 2): an encrypted file store with the same key file refuses it")
    func boundRowIsNotAFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyURL = folder.appendingPathComponent("key")
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table, encryption: .key(.keyFile(keyURL)))
        let credentials = TestDatabase.credentials()
        try await store.save(credentials)

        let row = try #require(try await TestDatabase.rowBytes(table: table).first)
        #expect(row[8] == 2)
        let fileURL = folder.appendingPathComponent("tokens.enc")
        try Data(row).write(to: fileURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
        let fileStore = try await EncryptedFileTokenStore(fileURL: fileURL, key: .keyFile(keyURL))
        do {
            _ = try await fileStore.load()
            Issue.record("a file store opened a row bound to its table and account")
        } catch {
            #expect(error.kind == .unsupportedFormatVersion, "\(error)")
        }
        #expect(try await store.load() == credentials)
        await store.shutdown()
    }

    @Test("a wrong key is decryptionFailed, and the row is moved aside, never overwritten")
    func wrongKey() async throws {
        let table = TestDatabase.uniqueTable()
        let right = try await TestDatabase.store(table: table, encryption: .key(TestDatabase.key(1)))
        let wrong = try await TestDatabase.store(table: table, encryption: .key(TestDatabase.key(2)))
        let credentials = TestDatabase.credentials()
        try await right.save(credentials)
        let original = try await TestDatabase.rowBytes(table: table)

        do {
            _ = try await wrong.load()
            Issue.record("loaded with the wrong key")
        } catch {
            #expect(error.kind == .decryptionFailed)
            #expect(error.path?.contains("account kim") == true)
        }
        #expect(try await TestDatabase.rowBytes(table: table) == original, "a load changed the row")

        // A save under the other key keeps the row it could not read.
        let replacement = TestDatabase.credentials("replacement")
        try await wrong.save(replacement)
        #expect(try await TestDatabase.rowBytes(table: table, unreadable: true) == original)
        #expect(try await wrong.load() == replacement)
        await right.shutdown()
        await wrong.shutdown()
    }

    @Test("a tampered row is refused and left as it is; clear moves it aside")
    func tamperedRow() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        try await store.save(TestDatabase.credentials())
        try await TestDatabase.execute(
            "UPDATE \"\(table)\" SET credentials = set_byte(credentials, 70, get_byte(credentials, 70) # 1)"
        )
        let tampered = try await TestDatabase.rowBytes(table: table)
        do {
            _ = try await store.load()
            Issue.record("loaded a tampered row")
        } catch {
            #expect(error.kind == .decryptionFailed)
        }
        #expect(try await TestDatabase.rowBytes(table: table) == tampered)

        try await store.clear()
        #expect(try await store.load() == nil)
        #expect(try await TestDatabase.rowBytes(table: table, unreadable: true) == tampered)
        await store.shutdown()
    }

    @Test("a truncated row is unreadable")
    func truncatedRow() async throws {
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(table: table)
        try await store.save(TestDatabase.credentials())
        try await TestDatabase.execute("UPDATE \"\(table)\" SET credentials = substring(credentials from 1 for 30)")
        do {
            _ = try await store.load()
            Issue.record("loaded a truncated row")
        } catch {
            #expect(error.kind == .unreadable)
        }
        await store.shutdown()
    }
}
