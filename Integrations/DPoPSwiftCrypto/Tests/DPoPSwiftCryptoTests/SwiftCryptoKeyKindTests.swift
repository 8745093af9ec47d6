@testable import DPoPSwiftCrypto
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue #36, step 5 on Linux: the engine's ES256 kind of key on swift-crypto makes keys a store
/// keeps and signs with them after they are read back, as another process would.
@Suite("The swift-crypto ES256 kind of DPoP key")
struct SwiftCryptoKeyKindTests {
    @Test("a new key is ES256, and its signer signs for its public key")
    func newKeySigns() throws {
        let kind = DPoPKeyKind.swiftCryptoES256
        let key = try kind.make()
        #expect(key.algorithm == "ES256")
        let signer = try kind.signer(for: key)
        #expect(signer.publicKey == key.publicKey)
        let input = Array("eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJodG0iOiJQT1NUIn0".utf8)
        let signature = try signer.sign(input)
        #expect(signature.count == 64)
        let fromStoredBytes = try #require(try key.withPrivateKey { try ES256Signer(rawRepresentation: $0) })
        #expect(fromStoredBytes.publicKey.thumbprint == key.thumbprint)
        #expect(fromStoredBytes.isValidSignature(signature, of: input))
        #expect(!fromStoredBytes.isValidSignature(signature, of: input + [0x2E]))
    }

    @Test("a key read back from a file store signs with the same public key")
    func keyFromStoreSigns() async throws {
        let kind = DPoPKeyKind.swiftCryptoES256
        let key = try kind.make()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-swift-crypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileTokenStore(fileURL: folder.appendingPathComponent("session.json"))
        var credentials = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1", accessTokenExpiresAt: nil, accountID: "kim")
        credentials.dpopKey = key
        credentials.accessTokenType = "DPoP"
        try await store.save(credentials)
        let loaded = try #require(try await FileTokenStore(fileURL: folder.appendingPathComponent("session.json")).load())
        #expect(loaded.dpopKey == key)
        let signer = try kind.signer(for: try #require(loaded.dpopKey))
        #expect(signer.publicKey.thumbprint == key.thumbprint)
    }

    @Test("a key of another algorithm is refused with a typed error")
    func otherAlgorithmRefused() throws {
        let key = try DPoPKey(algorithm: "EdDSA", publicKey: .okp(crv: "Ed25519", x: Array(repeating: 7, count: 32)),
                              reference: "hardware-1")
        #expect(throws: DPoPKeyError.self) { try DPoPKeyKind.swiftCryptoES256.signer(for: key) }
    }
}
