public import Foundation

/// A ``DPoPSigner`` could not sign a DPoP proof, so the request that needed it was not sent.
///
/// It says why in words and may carry the signer's own error (a CryptoKit or Security framework
/// error, say). Neither may hold key material: a signer never puts a private key in an error.
public struct DPoPSigningError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// Why the proof could not be signed, for example `the Secure Enclave key is not available`.
    public let reason: String
    /// The error the signer's key or library reported, if any.
    public let underlying: (any Error)?

    /// An error saying why the signer could not sign, with the error behind it, if any.
    public init(_ reason: String, underlying: (any Error)? = nil) {
        self.reason = reason
        self.underlying = underlying
    }

    /// For example `could not sign a DPoP proof: the Secure Enclave did not sign (…)`, with
    /// anything token-like in the underlying error redacted.
    public var description: String {
        guard let underlying else { return "could not sign a DPoP proof: \(reason)" }
        return "could not sign a DPoP proof: \(reason) (\(Redaction.printable(Redaction.redact(String(describing: underlying)))))"
    }

    /// The description.
    public var errorDescription: String? { description }
}
