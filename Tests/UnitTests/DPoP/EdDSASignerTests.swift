#if EncryptedTokenStore
import Foundation
@testable import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("EdDSA proofs: Ed25519 on libsodium, as RFC 8037 signs")
struct EdDSASignerTests {
    typealias RFC = RFC9449Examples

    static func rfcSigner() throws -> EdDSASigner {
        try EdDSASigner(seed: RFC.bytes(RFC.ed25519Seed))
    }

    @Test("RFC 8037's seed gives its public key and thumbprint")
    func rfcKey() throws {
        let signer = try Self.rfcSigner()
        #expect(signer.algorithm == "EdDSA")
        #expect(signer.publicKey == .okp(crv: "Ed25519", x: RFC.bytes(RFC.ed25519PublicKey)))
        #expect(signer.publicKey.thumbprint == RFC.ed25519Thumbprint)
    }

    @Test("RFC 8037 A.4's signature comes out exactly, and verifies")
    func rfcSignature() throws {
        let signer = try Self.rfcSigner()
        let input = Array(RFC.ed25519SigningInput.utf8)
        let signature = try signer.sign(input)
        #expect(Base64URL.encode(signature) == RFC.ed25519Signature)
        #expect(signer.isValidSignature(signature, of: input))
        #expect(Ed25519.isValidSignature(RFC.bytes(RFC.ed25519Signature), of: input, publicKey: RFC.bytes(RFC.ed25519PublicKey)))
    }

    @Test("a signature does not verify for another message, another key, or with a byte changed")
    func wrongSignatures() throws {
        let signer = try Self.rfcSigner()
        let input = Array(RFC.ed25519SigningInput.utf8)
        let signature = try signer.sign(input)
        #expect(!signer.isValidSignature(signature, of: input + [0x2E]))
        var changed = signature
        changed[17] ^= 0x01
        #expect(!signer.isValidSignature(changed, of: input))
        #expect(!signer.isValidSignature(Array(signature.dropLast()), of: input))
        #expect(!(try EdDSASigner.generate()).isValidSignature(signature, of: input))
    }

    @Test("a proof signed with EdDSA names the algorithm and the OKP key, and its signature verifies over header and payload")
    func eddsaProof() throws {
        let signer = try Self.rfcSigner()
        let proof = DPoPProof(method: .post, target: DPoPTarget(URL(string: "https://server.example.com/token")!)!,
                              issuedAt: Date(timeIntervalSince1970: 1562262616))
        let compact = try proof.compact(signedBy: signer)
        let segments = compact.split(separator: ".").map(String.init)
        #expect(segments.count == 3)
        #expect(String(decoding: RFC.bytes(segments[0]), as: UTF8.self)
                == #"{"typ":"dpop+jwt","alg":"EdDSA","jwk":{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}}"#)
        #expect(signer.isValidSignature(RFC.bytes(segments[2]), of: Array((segments[0] + "." + segments[1]).utf8)))
    }

    @Test("new keys differ, and each verifies its own signatures only")
    func generatedKeys() throws {
        let first = try EdDSASigner.generate()
        let second = try EdDSASigner.generate()
        #expect(first.publicKey != second.publicKey)
        let input = Array("a proof's signing input".utf8)
        let signature = try first.sign(input)
        #expect(signature.count == 64)
        #expect(first.isValidSignature(signature, of: input))
        #expect(!second.isValidSignature(signature, of: input))
    }

    @Test("a seed of another length is refused, and the error shows no byte of it", arguments: [0, 31, 33, 64])
    func wrongSeedLength(count: Int) {
        let seed = [UInt8](repeating: 0xA7, count: count)
        #expect {
            _ = try EdDSASigner(seed: seed)
        } throws: { error in
            let text = String(describing: error)
            return error is DPoPSigningError && text.contains("32 bytes") && !text.contains("a7") && !text.contains("167")
        }
    }

    @Test("neither the signer nor its key shows the private key in a description or mirror")
    func nothingSecretPrinted() throws {
        let signer = try Self.rfcSigner()
        let key = try #require(Ed25519.PrivateKey(seed: RFC.bytes(RFC.ed25519Seed)))
        var texts = [String(describing: signer), String(reflecting: signer), String(describing: key), String(reflecting: key)]
        for value in [signer, key] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            texts.append(dumped)
        }
        #expect(String(describing: signer) == "EdDSASigner(thumbprint \(RFC.ed25519Thumbprint))")
        let seed = RFC.bytes(RFC.ed25519Seed)
        // The seed as base64url, hex, base64, an array's description and a dump's lines (without spaces).
        let forms = [RFC.ed25519Seed, seed.map { String(format: "%02x", $0) }.joined(), Data(seed).base64EncodedString(),
                     seed.prefix(6).map { String($0) }.joined(separator: ","), seed.prefix(6).map { "-\($0)" }.joined()]
        var dumpedSeed = ""
        dump(seed, to: &dumpedSeed)
        #expect(dumpedSeed.filter { !$0.isWhitespace }.contains(forms[4]))  // the check below would see a dumped seed
        for text in texts {
            let compact = text.filter { !$0.isWhitespace }
            for form in forms { #expect(!compact.contains(form), "\(text)") }
        }
    }
}
#endif
