#if canImport(CryptoKit)
import CryptoKit
package import NetworkService

/// Signs DPoP proofs with ES256 (ECDSA on P-256 with SHA-256, RFC 7518 §3.4) through CryptoKit,
/// on Apple platforms. (On Linux the root package has no P-256 without a package dependency;
/// an integration package on swift-crypto will bring the same signer there.)
///
/// CryptoKit's raw signature is already JWS's `r ‖ s`, 64 bytes. The signer's description and
/// mirror show its public key's thumbprint only.
package struct ES256Signer: DPoPSigner, CustomStringConvertible, CustomReflectable {
    /// `ES256`.
    package var algorithm: String { "ES256" }
    /// The EC P-256 public key.
    package let publicKey: DPoPPublicKey
    private let key: P256.Signing.PrivateKey

    /// The signer of the P-256 key whose private scalar is `rawRepresentation` (32 bytes, the
    /// JWK's `d`).
    /// - Throws: ``/NetworkService/DPoPSigningError`` when it is not a P-256 private key.
    package init(rawRepresentation: [UInt8]) throws(DPoPSigningError) {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw DPoPSigningError("not a P-256 private key", underlying: error)
        }
        self.init(key)
    }

    /// A signer of a new random key.
    package static func generate() -> ES256Signer {
        ES256Signer(P256.Signing.PrivateKey())
    }

    private init(_ key: P256.Signing.PrivateKey) {
        self.key = key
        let point = Array(key.publicKey.rawRepresentation)  // x ‖ y, 32 bytes each
        publicKey = .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
    }

    /// The private scalar (the JWK's `d`, 32 bytes): a secret, for the store only.
    package var rawRepresentation: [UInt8] { Array(key.rawRepresentation) }

    /// The 64-byte `r ‖ s` signature of `input`.
    package func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
        do {
            return Array(try key.signature(for: input).rawRepresentation)
        } catch {
            throw DPoPSigningError("CryptoKit could not sign", underlying: error)
        }
    }

    /// Whether `signature` (`r ‖ s`) is this key's signature of `input`.
    package func isValidSignature(_ signature: [UInt8], of input: [UInt8]) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.publicKey.isValidSignature(signature, for: input)
    }

    /// For example `ES256Signer(thumbprint 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I)`.
    package var description: String { "ES256Signer(thumbprint \(publicKey.thumbprint))" }

    /// A mirror with the public key only.
    package var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
#endif
