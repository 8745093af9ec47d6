import Crypto
import Foundation

/// The public key in a DPoP proof's `jwk` header (RFC 9449 §4.2): P-256 for ES256, Ed25519
/// for EdDSA (RFC 8037). Anything else, or a key with private parts, is refused.
struct DPoPPublicKey: Sendable {
    /// The algorithms the server can verify.
    enum Algorithm: String, Sendable, CaseIterable {
        case es256 = "ES256"
        case edDSA = "EdDSA"
    }

    private enum Key {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    private let key: Key
    /// The JWK SHA-256 thumbprint (RFC 7638), base64url: what a token's `cnf.jkt` names.
    let thumbprint: String

    /// Reads `jwk` for `algorithm`; `nil` when it is not a public key of that algorithm.
    init?(jwk: [String: Any], algorithm: Algorithm) {
        // Private parts (RFC 7518 §6.2.2, RFC 8037 §2): a client that sends its private key
        // has lost it; the proof is refused rather than used.
        let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"]
        guard !privateMembers.contains(where: { jwk[$0] != nil }),
              let kty = jwk["kty"] as? String, let crv = jwk["crv"] as? String,
              let x = jwk["x"] as? String, Self.isBase64URL(x), let xBytes = Base64URL.decode(x) else { return nil }
        switch algorithm {
        case .es256:
            guard kty == "EC", crv == "P-256", let y = jwk["y"] as? String, Self.isBase64URL(y), let yBytes = Base64URL.decode(y),
                  xBytes.count == 32, yBytes.count == 32,
                  let key = try? P256.Signing.PublicKey(rawRepresentation: xBytes + yBytes) else { return nil }
            self.key = .p256(key)
            thumbprint = Self.thumbprint(of: #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#)
        case .edDSA:
            guard kty == "OKP", crv == "Ed25519", xBytes.count == 32,
                  let key = try? Curve25519.Signing.PublicKey(rawRepresentation: xBytes) else { return nil }
            self.key = .ed25519(key)
            thumbprint = Self.thumbprint(of: #"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#)
        }
    }

    /// Whether `signature` (JWS form: r‖s for ES256, 64 bytes for EdDSA) signs `input`.
    func verifies(_ signature: Data, of input: Data) -> Bool {
        switch key {
        case .p256(let key):
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: input)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: input)
        }
    }

    /// Only the base64url alphabet (the decoder would also take `+` and `/`, which would make
    /// a second spelling, and a second thumbprint, of one key).
    private static func isBase64URL(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// RFC 7638 §3: SHA-256 of the required members, in order, without whitespace. The members
    /// are base64url strings already checked to decode, so they need no escaping.
    private static func thumbprint(of canonicalJSON: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(canonicalJSON.utf8)))
    }
}
