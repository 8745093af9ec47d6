import AppSDKTesting
import Foundation
import Testing
import TokenStore

/// Issue 36, "key identical from every store": a DPoP-bound session read back from every kind
/// of store has the same key, and a signature made with the key read back verifies under the
/// public key saved.
@Suite("Every store gives back the DPoP key it was given")
struct DPoPKeyStoreRoundTripTests {
    /// Saves credentials bound to each kind of key through `store`, loads them through
    /// `reopened`, and checks key, token type and (for a software key) a signature.
    private func checkKeys(_ store: any TokenStore, reopened: () async throws -> any TokenStore) async throws {
        for key in DPoPTestKeys.all() {
            let saved = DPoPTestKeys.credentials(key)
            try await store.save(saved)
            let loaded = try #require(try await reopened().load())
            #expect(loaded == saved)
            #expect(loaded.dpopKey == saved.dpopKey, "\(key)")
            #expect(loaded.dpopKey?.thumbprint == key.thumbprint)
            #expect(loaded.accessTokenType == "DPoP")
            #if EncryptedTokenStore
            if key.algorithm == "EdDSA", let loadedKey = loaded.dpopKey {
                #expect(try DPoPTestKeys.signatureVerifies(signedWith: loadedKey, under: key))
            }
            #endif
        }
        // A bearer session saved over a bound one has no key left.
        let bearer = TokenStoreTesting.credentials("bearer")
        try await store.save(bearer)
        #expect(try await reopened().load()?.dpopKey == nil)
    }

    @Test("the in-memory store keeps the key in the credentials")
    func inMemory() async throws {
        let store = InMemoryTokenStore()
        try await checkKeys(store, reopened: { store })
    }

    @Test("the file store writes the key in format version 2 and reads it back")
    func file() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            try await checkKeys(FileTokenStore(fileURL: url), reopened: { FileTokenStore(fileURL: url) })
        }
    }

    @Test("a Keychain store keeps the key in the tokens' item (InMemoryKeychain)")
    func keychain() async throws {
        let keychain = InMemoryKeychain()
        let service = KeychainTesting.uniqueService()
        try await checkKeys(keychain.tokenStore(service: service), reopened: { keychain.tokenStore(service: service) })
    }

    @Test("a plain sealer round-trips the key")
    func plainSealer() async throws {
        let sealer = CredentialsSealer.plain(location: "test/plain")
        for key in DPoPTestKeys.all() {
            let saved = DPoPTestKeys.credentials(key)
            let opened = try await sealer.open(try sealer.seal(saved))
            #expect(opened.dpopKey == key)
        }
    }

    #if EncryptedTokenStore
    @Test("the encrypted store keeps the key inside the ciphertext")
    func encrypted() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let key = EncryptedFileTokenStore.KeySource.rawKey([UInt8](repeating: 9, count: 32))
            try await checkKeys(try await EncryptedFileTokenStore(fileURL: url, key: key),
                                reopened: { try await EncryptedFileTokenStore(fileURL: url, key: key) })
            let eddsa = DPoPTestKeys.eddsa()
            try await EncryptedFileTokenStore(fileURL: url, key: key).save(DPoPTestKeys.credentials(eddsa))
            let file = String(decoding: try TokenStoreTesting.bytes(at: url), as: UTF8.self)
            #expect(!file.contains(try #require(DPoPTestKeys.d(of: eddsa))))
            #expect(!file.contains("dpopKey"))
        }
    }

    @Test("an encrypted sealer, bound as the PostgreSQL store binds its rows, round-trips the key")
    func boundSealer() async throws {
        let sealer = try await CredentialsSealer.encrypted(key: .rawKey([UInt8](repeating: 3, count: 32)), location: "db tokens/kim")
        for key in DPoPTestKeys.all() {
            let saved = DPoPTestKeys.credentials(key)
            let row = try sealer.seal(saved, boundTo: "tokens/kim")
            let opened = try await sealer.open(row, boundTo: "tokens/kim", acceptingUnbound: false)
            #expect(opened == saved)
            #expect(opened.dpopKey == key)
            if key.algorithm == "EdDSA", let openedKey = opened.dpopKey {
                #expect(try DPoPTestKeys.signatureVerifies(signedWith: openedKey, under: key))
            }
        }
    }

    @Test("two software keys with the same public part but another d are not equal")
    func materialCounts() {
        let seed = DPoPTestKeys.bytes(DPoPTestKeys.rfc8037D)
        let one = DPoPTestKeys.eddsa(seed: seed)
        #expect(one == DPoPTestKeys.eddsa(seed: seed))
        let other = DPoPKey(algorithm: "EdDSA", coordinates: one.coordinates,
                            material: .privateKey(DPoPPrivateKeyBytes(copying: [UInt8](repeating: 1, count: 32))!))
        #expect(one != other)
        #expect(one.thumbprint == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k", "RFC 8037's thumbprint")
    }
    #endif
}
