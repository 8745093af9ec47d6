#if EncryptedTokenStore
import Foundation
import Testing
import TokenStore

@Suite("Sealed credentials bound to a place open only there")
struct CredentialsSealerBindingTests {
    let key = EncryptedFileTokenStore.KeySource.rawKey([UInt8](repeating: 8, count: 32))

    @Test("bytes bound to one place open there, and are decryptionFailed at any other")
    func boundBytesOpenOnlyWhereSealed() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: key, location: "row")
        let credentials = TokenStoreTesting.credentials()
        let bytes = try sealer.seal(credentials, boundTo: "table t, account kim")
        #expect(bytes[8] == 2, "format version 2")
        #expect(try await sealer.open(bytes, boundTo: "table t, account kim", acceptingUnbound: false) == credentials)
        for other in ["table t, account lee", "table u, account kim", "", "table t, account kim "] {
            do {
                _ = try await sealer.open(bytes, boundTo: other, acceptingUnbound: true)
                Issue.record("opened bytes bound elsewhere with binding '\(other)'")
            } catch {
                #expect(error.kind == .decryptionFailed, "\(other)")
                #expect(error.reason.contains("moved or copied here from another place"))
            }
        }
    }

    @Test("bound bytes are refused without their binding: by an unbound open and by a file store")
    func boundBytesNeedTheirBinding() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let sealer = try await CredentialsSealer.encrypted(key: key, location: "row")
            let bytes = try sealer.seal(TokenStoreTesting.credentials(), boundTo: "table t, account kim")
            do {
                _ = try await sealer.open(bytes)
                Issue.record("opened bound bytes without their binding")
            } catch let error as TokenStoreError {
                #expect(error.kind == .unsupportedFormatVersion)
            }
            let url = folder.appendingPathComponent("tokens.enc")
            try TokenStoreTesting.write(bytes, to: url)
            let store = try await EncryptedFileTokenStore(fileURL: url, key: key)
            let error = await TokenStoreTesting.expectStoreError { _ = try await store.load() }
            #expect(error?.kind == .unsupportedFormatVersion)
            #expect(error?.description.contains("version 2") == true)
        }
    }

    @Test("unbound (version 1) bytes open with a binding only when unbound bytes are accepted")
    func unboundBytes() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: key, location: "row")
        let credentials = TokenStoreTesting.credentials()
        let unbound = try sealer.seal(credentials)
        #expect(unbound[8] == 1)
        #expect(try await sealer.open(unbound, boundTo: "table t, account kim", acceptingUnbound: true) == credentials)
        do {
            _ = try await sealer.open(unbound, boundTo: "table t, account kim", acceptingUnbound: false)
            Issue.record("opened unbound bytes although they are refused")
        } catch {
            #expect(error.kind == .unsupportedFormatVersion)
            #expect(error.reason.contains("version 1"))
        }
    }

    @Test("every flipped byte of bound bytes is refused, the version byte included")
    func everyFlippedByteIsRefused() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: key, location: "row")
        let bytes = try sealer.seal(TokenStoreTesting.credentials(), boundTo: "table t, account kim")
        for index in bytes.indices {
            var modified = bytes
            modified[index] ^= 0x01
            await #expect(throws: TokenStoreError.self, "byte \(index)") {
                _ = try await sealer.open(modified, boundTo: "table t, account kim", acceptingUnbound: true)
            }
        }
    }

    @Test("a passphrase sealer opens bound bytes another one sealed with its own salt")
    func passphraseSealersAgree() async throws {
        let passphrase = EncryptedFileTokenStore.KeySource.passphrase("correct horse", derivation: .cheapForTests)
        let first = try await CredentialsSealer.encrypted(key: passphrase, location: "row")
        let second = try await CredentialsSealer.encrypted(key: passphrase, location: "row")
        let credentials = TokenStoreTesting.credentials()
        let bytes = try first.seal(credentials, boundTo: "b")
        #expect(try await second.open(bytes, boundTo: "b", acceptingUnbound: false) == credentials)
    }

    @Test("a plain sealer has nothing to bind with: its bound bytes are the plain JSON")
    func plainSealerDoesNotBind() async throws {
        let sealer = CredentialsSealer.plain(location: "row")
        let credentials = TokenStoreTesting.credentials()
        let bytes = try sealer.seal(credentials, boundTo: "table t, account kim")
        #expect(bytes.first == UInt8(ascii: "{"))
        #expect(try await sealer.open(bytes, boundTo: "anything", acceptingUnbound: false) == credentials)
    }
}
#endif
