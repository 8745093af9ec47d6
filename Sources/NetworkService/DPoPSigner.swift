/// Signs DPoP proofs (RFC 9449) with a private key that only this client holds.
///
/// A DPoP proof is a JWS that a client sends with a request, in the `DPoP` header, to show that
/// it holds the key its tokens are bound to: a token copied without the key is then worth
/// nothing. The SDK writes the proof and asks the signer for its signature only, so the private
/// key never has to leave the signer: implement the protocol to sign with a key in the Secure
/// Enclave, a hardware token or a key service.
///
/// `sign(_:)` is synchronous, as CryptoKit, the Secure Enclave and libsodium are: a proof is made
/// while a request is built.
///
/// ```swift
/// import CryptoKit
///
/// struct EnclaveSigner: DPoPSigner {
///     let key: SecureEnclave.P256.Signing.PrivateKey
///
///     var algorithm: String { "ES256" }
///     var publicKey: DPoPPublicKey {
///         let point = Array(key.publicKey.rawRepresentation)   // x ‖ y, 32 bytes each
///         return .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
///     }
///
///     func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
///         do {
///             return Array(try key.signature(for: input).rawRepresentation)   // r ‖ s
///         } catch {
///             throw DPoPSigningError("the Secure Enclave did not sign", underlying: error)
///         }
///     }
/// }
/// ```
///
/// A signer's description and mirror must not show its private key; the SDK never prints a
/// signer, a proof or a nonce.
public protocol DPoPSigner: Sendable {
    /// The JWS algorithm of the signatures, as a proof's `alg` names it: `"ES256"` (ECDSA on
    /// P-256 with SHA-256, RFC 7518 §3.4) or `"EdDSA"` (Ed25519, RFC 8037 §3.1).
    var algorithm: String { get }

    /// The public half of the key: the proof's `jwk`, and what a server binds tokens to
    /// (its ``DPoPPublicKey/thumbprint``).
    var publicKey: DPoPPublicKey { get }

    /// The JWS signature of `input` (the ASCII of the proof's encoded header, a dot and its
    /// encoded payload) with the private key.
    ///
    /// For ES256 it is the 64 bytes `r ‖ s`, each 32 bytes big-endian (RFC 7518 §3.4), not the
    /// DER encoding most libraries return by default; for EdDSA, the 64-byte Ed25519 signature.
    /// - Throws: ``DPoPSigningError`` when the key cannot sign (a hardware key that is gone or
    ///   locked, say). The request is not sent.
    func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8]
}
