import Crypto
@testable import DPoPSwiftCrypto
import Foundation
import NetworkService
import Testing

/// Issue #36, step 3 on Linux: swift-crypto's ES256 signer, checked against RFC 9449's published
/// proofs and RFC 7515's published key.
@Suite("ES256 signer on swift-crypto")
struct ES256SignerTests {
    /// RFC 9449 §4.1 / docs/DPOP-PLAN.md §7: the key of every example proof (public only).
    static let rfc9449X = "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"
    static let rfc9449Y = "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"
    /// RFC 9449 Figure 4's header, as the examples encode it.
    static let rfc9449Header = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19"
    /// RFC 9449 Figures 2 and 5: the proof of the token request.
    static let figure4Proof = rfc9449Header
        + ".eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ"
        + ".2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"

    /// RFC 7515 Appendix A.3: a P-256 key published with its private part.
    static let rfc7515D = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"
    static let rfc7515X = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let rfc7515Y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"

    @Test("a signature is 64 bytes r ‖ s that verifies for its input and key only")
    func signsAndVerifies() throws {
        let signer = ES256Signer.generate()
        let input = Array("eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJodG0iOiJHRVQifQ".utf8)

        let signature = try signer.sign(input)

        #expect(signature.count == 64)
        #expect(signer.algorithm == "ES256")
        #expect(signer.isValidSignature(signature, of: input))
        #expect(!signer.isValidSignature(signature, of: input + Array("x".utf8)))
        #expect(!ES256Signer.generate().isValidSignature(signature, of: input))
        // ECDSA draws a fresh nonce per signature: the same input signs differently, both valid.
        let again = try signer.sign(input)
        #expect(again != signature)
        #expect(signer.isValidSignature(again, of: input))
    }

    @Test("RFC 9449's proof of Figure 4 verifies under the RFC's key, and not once altered")
    func rfc9449Figure4Verifies() throws {
        let parts = Self.figure4Proof.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        let signature = try Self.bytes(parts[2])
        let x = try Self.bytes(Self.rfc9449X), y = try Self.bytes(Self.rfc9449Y)

        #expect(ES256Signer.isValidSignature(signature, of: input, x: x, y: y))
        var altered = signature
        altered[10] ^= 0x01
        #expect(!ES256Signer.isValidSignature(altered, of: input, x: x, y: y))
        #expect(!ES256Signer.isValidSignature(signature, of: Array("\(parts[0]).\(parts[0])".utf8), x: x, y: y))
    }

    @Test("RFC 9449's refresh (Figure 7) and resource (Figure 14) proofs verify under the RFC's key")
    func rfc9449Figures7And14Verify() throws {
        let x = try Self.bytes(Self.rfc9449X), y = try Self.bytes(Self.rfc9449Y)
        let refresh = #"{"jti":"-BwC3ESc6acc2lTc","htm":"POST","htu":"https://server.example.com/token","iat":1562265296}"#
        let resource = #"{"jti":"e1j3V_bKic8-LAEB","htm":"GET","htu":"https://resource.example.org/protectedresource","iat":1562262618,"ath":"fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"}"#
        let cases = [
            (refresh, "pAqut2IRDm_De6PR93SYmGBPXpwrAk90e8cP2hjiaG5QsGSuKDYW7_X620BxqhvYC8ynrrvZLTk41mSRroapUA"),
            (resource, "2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"),
        ]
        for (payload, signature) in cases {
            let input = Array("\(Self.rfc9449Header).\(Self.encode(Array(payload.utf8)))".utf8)
            #expect(ES256Signer.isValidSignature(try Self.bytes(signature), of: input, x: x, y: y))
        }
    }

    @Test("the key from RFC 7515's d has the RFC's public x and y, and its thumbprint")
    func publicKeyFromD() throws {
        let signer = try ES256Signer(rawRepresentation: try Self.bytes(Self.rfc7515D))
        let expected = DPoPPublicKey.ec(crv: "P-256", x: try Self.bytes(Self.rfc7515X), y: try Self.bytes(Self.rfc7515Y))

        #expect(signer.publicKey == expected)
        #expect(signer.publicKey.thumbprint == expected.thumbprint)
    }

    @Test("a key made from a generated key's d is the same key: same public key, each verifies the other's signatures")
    func keyFromDRoundTrips() throws {
        let original = ES256Signer.generate()
        let d = original.rawRepresentation
        #expect(d.count == 32)

        let restored = try ES256Signer(rawRepresentation: d)
        let input = Array("header.payload".utf8)

        #expect(restored.publicKey == original.publicKey)
        #expect(restored.rawRepresentation == d)
        #expect(original.isValidSignature(try restored.sign(input), of: input))
        #expect(restored.isValidSignature(try original.sign(input), of: input))
        #expect(ES256Signer.generate().publicKey != original.publicKey)
    }

    @Test("bytes that are no P-256 private key are refused with an error naming no key bytes")
    func refusesBadKeys() throws {
        for bad in [[UInt8](repeating: 7, count: 31), [UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32)] {
            do {
                _ = try ES256Signer(rawRepresentation: bad)
                Issue.record("accepted \(bad.count) bytes as a P-256 key")
            } catch {
                #expect(error.description.hasPrefix("could not sign a DPoP proof: not a P-256 private key"))
                #expect(!error.description.contains(Self.encode(bad)))
            }
        }
    }

    @Test("the description, the debug description and a dump show the thumbprint, never the private key")
    func descriptionHidesThePrivateKey() throws {
        let d = try Self.bytes(Self.rfc7515D)
        let signer = try ES256Signer(rawRepresentation: d)
        var dumped = ""
        dump(signer, to: &dumped)
        let shown = [signer.description, String(reflecting: signer), "\(signer)", dumped]
        let secretForms = [Self.rfc7515D, Self.hex(d), d.map(String.init).joined(separator: ", "), Data(d).base64EncodedString()]

        #expect(signer.description == "ES256Signer(thumbprint \(signer.publicKey.thumbprint))")
        // Counted, not compared, so that a failure does not print the key it found.
        let leaks = shown.filter { text in secretForms.contains { text.contains($0) } }.count
        #expect(leaks == 0, "the private key in \(leaks) of the \(shown.count) texts")
    }

    // MARK: - helpers

    static func bytes(_ base64url: String) throws -> [UInt8] {
        var base64 = base64url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Array(try #require(Data(base64Encoded: base64)))
    }

    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
