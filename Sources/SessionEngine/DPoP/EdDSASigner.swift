#if EncryptedTokenStore
package import NetworkService
import TokenStore

/// Signs DPoP proofs with EdDSA (Ed25519, RFC 8037 §3.1) through libsodium, which the root
/// package already links for the encrypted store: so it needs the `EncryptedTokenStore` trait.
///
/// The key is a 32-byte seed (the JWK's `d`), kept in libsodium's guarded memory; the signer's
/// description and mirror show its public key's thumbprint only.
package struct EdDSASigner: DPoPSigner, CustomStringConvertible, CustomReflectable {
    /// `EdDSA`.
    package var algorithm: String { "EdDSA" }
    /// The OKP Ed25519 public key.
    package let publicKey: DPoPPublicKey
    private let key: Ed25519.PrivateKey

    /// The signer of the key whose seed is `seed` (32 bytes; the caller wipes its own copy).
    /// - Throws: ``/NetworkService/DPoPSigningError`` when the seed is not 32 bytes or libsodium
    ///   cannot be used.
    package init(seed: [UInt8]) throws(DPoPSigningError) {
        guard seed.count == Ed25519.seedByteCount else {
            throw DPoPSigningError("an Ed25519 seed is \(Ed25519.seedByteCount) bytes, not \(seed.count)")
        }
        guard let key = Ed25519.PrivateKey(seed: seed) else { throw DPoPSigningError("libsodium could not be used") }
        self.init(key)
    }

    /// A signer of a new random key.
    /// - Throws: ``/NetworkService/DPoPSigningError`` when libsodium cannot be used.
    package static func generate() throws(DPoPSigningError) -> EdDSASigner {
        guard let key = Ed25519.PrivateKey.generate() else { throw DPoPSigningError("libsodium could not be used") }
        return EdDSASigner(key)
    }

    private init(_ key: Ed25519.PrivateKey) {
        self.key = key
        publicKey = .okp(crv: "Ed25519", x: key.publicKey)
    }

    /// The 64-byte Ed25519 signature of `input`; Ed25519 cannot fail to sign once it has a key.
    package func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
        key.signature(for: input)
    }

    /// Whether `signature` is this key's signature of `input`.
    package func isValidSignature(_ signature: [UInt8], of input: [UInt8]) -> Bool {
        Ed25519.isValidSignature(signature, of: input, publicKey: key.publicKey)
    }

    /// For example `EdDSASigner(thumbprint kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k)`.
    package var description: String { "EdDSASigner(thumbprint \(publicKey.thumbprint))" }

    /// A mirror with the public key only.
    package var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
#endif
