import Foundation
import Testing
import TokenStore

@Suite("A file store moves an unreadable file aside on request and says where it went")
struct MoveAsideTests {
    @Test("an unreadable plain file is renamed beside itself, byte for byte and with its mode, and its new path returned")
    func plainFileIsMovedAside() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            let garbage = Array("{\"version\":1,\"credentials\":{\"accessTo".utf8)
            try TokenStoreTesting.write(garbage, to: url)

            let moved = try #require(try await store.moveAsideIfUnreadable())
            #expect(moved.deletingLastPathComponent().standardizedFileURL == folder)
            #expect(moved.lastPathComponent.hasPrefix("tokens.json.unreadable-"))
            #expect(try TokenStoreTesting.bytes(at: moved) == garbage)
            #expect(try TokenStoreTesting.mode(of: moved) == 0o600)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(try await store.load() == nil)
        }
    }

    @Test("a file that loads, and no file at all, are left alone: nil")
    func readableFileStays() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            #expect(try await store.moveAsideIfUnreadable() == nil)
            let credentials = TokenStoreTesting.credentials()
            try await store.save(credentials)
            let listing = try TokenStoreTesting.contents(of: folder)
            #expect(try await store.moveAsideIfUnreadable() == nil)
            #expect(try TokenStoreTesting.contents(of: folder) == listing)
            #expect(try await store.load() == credentials)
        }
    }

    #if EncryptedTokenStore
    @Test("an encrypted file that is truncated, random or of another version is moved aside; one that loads is not")
    func encryptedFileIsMovedAside() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("p", derivation: .cheapForTests))
            try await store.save(TokenStoreTesting.credentials())
            let original = try TokenStoreTesting.bytes(at: url)
            #expect(try await store.moveAsideIfUnreadable() == nil)

            var otherVersion = original
            otherVersion[8] = 9
            let random = (0..<original.count).map { _ in UInt8.random(in: 0...255) }
            for damaged in [Array(original.prefix(30)), random, otherVersion] {
                try TokenStoreTesting.write(damaged, to: url)
                let moved = try #require(try await store.moveAsideIfUnreadable())
                #expect(try TokenStoreTesting.bytes(at: moved) == damaged)
                #expect(!FileManager.default.fileExists(atPath: url.path))
                try FileManager.default.removeItem(at: moved)
            }
        }
    }

    @Test("a file that does not decrypt is moved too (a wrong key looks the same), and can be renamed back")
    func undecryptableFileIsMovedAside() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let right = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("right", derivation: .cheapForTests))
            let credentials = TokenStoreTesting.credentials()
            try await right.save(credentials)
            let wrong = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("wrong", derivation: .cheapForTests))

            let moved = try #require(try await wrong.moveAsideIfUnreadable())
            try FileManager.default.moveItem(at: moved, to: url)
            #expect(try await right.load() == credentials)
        }
    }
    #endif
}
