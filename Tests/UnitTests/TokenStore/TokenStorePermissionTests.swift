import Foundation
import Testing
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Token store files are private to their owner")
struct TokenStorePermissionTests {
    private func stores(at url: URL) async throws -> [any TokenStore] {
        var stores: [any TokenStore] = [FileTokenStore(fileURL: url)]
        #if EncryptedTokenStore
        stores.append(try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 3, count: 32))))
        #endif
        return stores
    }

    @Test("Saving creates the file with mode 0600 and missing folders with mode 0700")
    func createdModes() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("outer/inner/tokens")
            for store in try await stores(at: url) {
                try await store.save(TokenStoreTesting.credentials())
                #expect(try TokenStoreTesting.mode(of: url) == 0o600)
                #expect(try TokenStoreTesting.mode(of: url.appendingPathExtension("lock")) == 0o600)
                #expect(try TokenStoreTesting.mode(of: folder.appendingPathComponent("outer")) == 0o700)
                #expect(try TokenStoreTesting.mode(of: folder.appendingPathComponent("outer/inner")) == 0o700)
                try await store.clear()
            }
        }
    }

    @Test("A file that group or others can read is refused with an error that says so")
    func insecureFileRefused() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens")
            for store in try await stores(at: url) {
                try await store.save(TokenStoreTesting.credentials())
                for mode: mode_t in [0o644, 0o640, 0o604] {
                    chmod(url.path, mode)
                    let before = try TokenStoreTesting.bytes(at: url)
                    let error = await TokenStoreTesting.expectStoreError { _ = try await store.load() }
                    #expect(error?.kind == .insecurePermissions)
                    #expect(error?.path == url.path)
                    #expect(error?.description.contains(String(mode, radix: 8)) == true, "\(error?.description ?? "")")
                    #expect(try TokenStoreTesting.bytes(at: url) == before)
                    #expect(try TokenStoreTesting.mode(of: url) == mode, "the store does not change the mode itself")
                }
                chmod(url.path, 0o600)
                try await store.clear()
            }
        }
    }

    @Test("A caller that opts out of the permission check can read a 0644 file")
    func optOut() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let credentials = TokenStoreTesting.credentials()
            try await FileTokenStore(fileURL: url).save(credentials)
            chmod(url.path, 0o644)
            let relaxed = FileTokenStore(fileURL: url, options: .init(allowsInsecurePermissions: true))
            #expect(try await relaxed.load() == credentials)
        }
    }

    @Test("Saving over a 0644 file keeps the old file aside and writes a 0600 one")
    func saveOverInsecureFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let store = FileTokenStore(fileURL: url)
            try await store.save(TokenStoreTesting.credentials("old"))
            chmod(url.path, 0o644)
            let new = TokenStoreTesting.credentials("new")
            try await store.save(new)
            #expect(try TokenStoreTesting.mode(of: url) == 0o600)
            #expect(try await store.load() == new)
            #expect(try TokenStoreTesting.contents(of: folder).contains { $0.hasPrefix("tokens.json.unreadable-") })
        }
    }

    #if EncryptedTokenStore
    @Test("A key file that group or others can read is refused unless the caller opts out")
    func insecureKeyFile() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let keyURL = folder.appendingPathComponent("token.key")
            try TokenStoreTesting.write([UInt8](repeating: 9, count: 32), to: keyURL, mode: 0o644)
            let url = folder.appendingPathComponent("tokens.enc")
            let error = await TokenStoreTesting.expectStoreError {
                _ = try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(keyURL))
            }
            #expect(error?.kind == .insecurePermissions)
            #expect(error?.path == keyURL.path)
            _ = try await EncryptedFileTokenStore(
                fileURL: url, key: .keyFile(keyURL), options: .init(allowsInsecurePermissions: true))
        }
    }
    #endif
}
