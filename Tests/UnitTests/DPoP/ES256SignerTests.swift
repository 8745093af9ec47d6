#if canImport(CryptoKit)
import CryptoKit
import Foundation
@testable import NetworkService
import SessionEngine
import Testing

@Suite("ES256 proofs: P-256 on CryptoKit (Apple platforms)")
struct ES256SignerTests {
    typealias RFC = RFC9449Examples

    /// RFC 9449's public key, as CryptoKit reads it (x ‖ y).
    static let rfcPublicKey = try! P256.Signing.PublicKey(rawRepresentation:
        RFC.bytes("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs") + RFC.bytes("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))

    @Test("the RFC's three proofs verify under the RFC's key", arguments: [
        RFC.tokenRequestProof, RFC.refreshRequestProof, RFC.resourceRequestProof,
    ])
    func rfcProofsVerify(proof: String) throws {
        let segments = proof.split(separator: ".").map(String.init)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: RFC.bytes(segments[2]))
        #expect(Self.rfcPublicKey.isValidSignature(signature, for: Array((segments[0] + "." + segments[1]).utf8)))
    }

    @Test("a new key signs r ‖ s that verifies; its proof names ES256 and its EC key")
    func signAndVerify() throws {
        let signer = ES256Signer.generate()
        #expect(signer.algorithm == "ES256")
        let proof = try DPoPProof(method: .get, target: DPoPTarget(URL(string: "https://resource.example.org/x")!)!,
                                  issuedAt: Date()).compact(signedBy: signer)
        let segments = proof.split(separator: ".").map(String.init)
        let signature = RFC.bytes(segments[2])
        #expect(signature.count == 64)
        #expect(signer.isValidSignature(signature, of: Array((segments[0] + "." + segments[1]).utf8)))
        #expect(!ES256Signer.generate().isValidSignature(signature, of: Array((segments[0] + "." + segments[1]).utf8)))
        #expect(String(decoding: RFC.bytes(segments[0]), as: UTF8.self).hasPrefix(#"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","x":""#))
    }

    @Test("a key read back from its raw representation is the same key")
    func rawRepresentation() throws {
        let key = P256.Signing.PrivateKey()
        let signer = try ES256Signer(rawRepresentation: Array(key.rawRepresentation))
        let point = Array(key.publicKey.rawRepresentation)
        #expect(signer.publicKey == .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...])))
        #expect(throws: DPoPSigningError.self) { try ES256Signer(rawRepresentation: [1, 2, 3]) }
        #expect(!String(reflecting: signer).contains(key.rawRepresentation.base64EncodedString()))
    }
}
#endif
