import Crypto
public import NetworkService

/// Signs DPoP proofs (RFC 9449) with ES256, ECDSA on P-256 with SHA-256 (RFC 7518 §3.4), through
/// swift-crypto: the ES256 signer for Linux, where the SDK itself has no P-256 without a package
/// dependency.
///
/// Its key is the same as CryptoKit's `P256.Signing.PrivateKey` on Apple platforms: the 32-byte
/// private scalar (the JWK's `d`) is its ``rawRepresentation``, so a key made on one platform
/// signs on the other.
///
/// ```swift
/// import DPoPSwiftCrypto
///
/// let signer = ES256Signer.generate()
/// let thumbprint = signer.publicKey.thumbprint      // what a server binds the tokens to
/// // … keep signer.rawRepresentation as secretly as the refresh token, then:
/// let again = try ES256Signer(rawRepresentation: savedKey)
/// ```
///
/// Its signature is the 64 bytes `r ‖ s` that JWS wants, not DER. Its description and mirror
/// show its public key's thumbprint only, never the private key.
public struct ES256Signer: DPoPSigner, CustomStringConvertible, CustomReflectable {
    /// `ES256`.
    public var algorithm: String { "ES256" }
    /// The EC P-256 public key (`kty` `EC`, `crv` `P-256`, `x` and `y` 32 bytes each).
    public let publicKey: DPoPPublicKey
    private let key: P256.Signing.PrivateKey

    /// The signer of the P-256 key whose private scalar is `rawRepresentation`: 32 bytes,
    /// big-endian, the JWK's `d` (RFC 7518 §6.2.2.1).
    /// - Throws: ``NetworkService/DPoPSigningError`` when the bytes are not a P-256 private key
    ///   (not 32 bytes, zero, or not below the curve's order).
    public init(rawRepresentation: [UInt8]) throws(DPoPSigningError) {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw DPoPSigningError("not a P-256 private key (\(rawRepresentation.count) bytes)", underlying: error)
        }
        self.init(key)
    }

    /// A signer of a new random key (from the system's secure random source, through BoringSSL).
    public static func generate() -> ES256Signer {
        ES256Signer(P256.Signing.PrivateKey())
    }

    private init(_ key: P256.Signing.PrivateKey) {
        self.key = key
        let point = Array(key.publicKey.rawRepresentation)  // x ‖ y, 32 bytes each
        publicKey = .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
    }

    /// The private key's 32 bytes (the JWK's `d`): a secret, to be kept beside the session's
    /// refresh token and never printed. ``init(rawRepresentation:)`` makes the same signer again.
    public var rawRepresentation: [UInt8] {
        Array(key.rawRepresentation)
    }

    /// The 64-byte `r ‖ s` signature of `input`, each half 32 bytes big-endian (RFC 7518 §3.4).
    /// ECDSA draws a new random nonce for each signature, so two signatures of the same input differ.
    /// - Throws: ``NetworkService/DPoPSigningError`` when BoringSSL could not sign.
    public func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
        do {
            return Array(try key.signature(for: input).rawRepresentation)
        } catch {
            throw DPoPSigningError("swift-crypto could not sign", underlying: error)
        }
    }

    /// Whether `signature` (`r ‖ s`) is this key's signature of `input`.
    func isValidSignature(_ signature: [UInt8], of input: [UInt8]) -> Bool {
        Self.isValidSignature(signature, of: input, publicKey: key.publicKey)
    }

    /// Whether `signature` (`r ‖ s`) of `input` verifies under the P-256 public key with the
    /// coordinates `x` and `y` (32 bytes each): for keys known by their public part only.
    static func isValidSignature(_ signature: [UInt8], of input: [UInt8], x: [UInt8], y: [UInt8]) -> Bool {
        guard let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y) else { return false }
        return isValidSignature(signature, of: input, publicKey: publicKey)
    }

    private static func isValidSignature(_ signature: [UInt8], of input: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return publicKey.isValidSignature(signature, for: input)
    }

    /// For example `ES256Signer(thumbprint 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I)`.
    public var description: String { "ES256Signer(thumbprint \(publicKey.thumbprint))" }

    /// A mirror with the public key only.
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
