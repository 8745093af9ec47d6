#if EncryptedTokenStore
import CSodium

/// Ed25519 signatures (RFC 8032) through libsodium, for DPoP's EdDSA proofs (RFC 8037 §3.1):
/// the one asymmetric algorithm the root package signs with without a package dependency
/// (SessionEngine's `EdDSASigner` wraps it as a `DPoPSigner`).
///
/// Ed25519 is deterministic: the same key and message give the same signature, which is why
/// RFC 8037's example signature can be reproduced exactly.
package enum Ed25519 {
    /// A seed (the JWK's `d`, RFC 8037 §2): 32 bytes.
    package static let seedByteCount = Int(crypto_sign_seedbytes())
    /// A public key (the JWK's `x`): 32 bytes.
    package static let publicKeyByteCount = Int(crypto_sign_publickeybytes())
    /// A signature: 64 bytes.
    package static let signatureByteCount = Int(crypto_sign_bytes())

    /// An Ed25519 private key, kept as libsodium keeps it (the seed followed by the public key)
    /// in ``SecretBytes``: out of swap where the system allows, read-only, wiped when freed.
    ///
    /// Its description and mirror show the public key only.
    package final class PrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
        private let secretKey: SecretBytes
        /// The public key, 32 bytes.
        package let publicKey: [UInt8]

        /// The key pair of `seed` (32 bytes; the caller wipes its own copy); `nil` when the seed
        /// has another length or libsodium cannot be used.
        package convenience init?(seed: [UInt8]) {
            guard seed.count == Ed25519.seedByteCount else { return nil }
            self.init { publicKey, secretKey in crypto_sign_seed_keypair(publicKey, secretKey, seed) == 0 }
        }

        /// A new random key pair from the system's secure generator; `nil` when libsodium cannot
        /// be used.
        package static func generate() -> PrivateKey? {
            PrivateKey { publicKey, secretKey in crypto_sign_keypair(publicKey, secretKey) == 0 }
        }

        private init?(_ makeKeyPair: (_ publicKey: UnsafeMutablePointer<UInt8>, _ secretKey: UnsafeMutablePointer<UInt8>) -> Bool) {
            guard (try? Sodium.ensureReady()) != nil else { return nil }
            var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyByteCount)
            let secretKey = SecretBytes(count: Int(crypto_sign_secretkeybytes())) { buffer in
                publicKey.withUnsafeMutableBufferPointer { publicKey in
                    makeKeyPair(publicKey.baseAddress!, buffer.bindMemory(to: UInt8.self).baseAddress!)
                }
            }
            guard let secretKey else { return nil }
            self.secretKey = secretKey
            self.publicKey = publicKey
        }

        /// The 64-byte signature of `message`.
        package func signature(for message: [UInt8]) -> [UInt8] {
            var signature = [UInt8](repeating: 0, count: Ed25519.signatureByteCount)
            secretKey.withUnsafeBytes { secretKey in
                _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count),
                                         secretKey.bindMemory(to: UInt8.self).baseAddress!)
            }
            return signature
        }

        /// `Ed25519.PrivateKey(<redacted>)`.
        package var description: String { "Ed25519.PrivateKey(<redacted>)" }

        /// A mirror with the public key only.
        package var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
    }

    /// Whether `signature` is `publicKey`'s signature of `message`.
    package static func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureByteCount, publicKey.count == publicKeyByteCount,
              (try? Sodium.ensureReady()) != nil else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }
}
#endif
