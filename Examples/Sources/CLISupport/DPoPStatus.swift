public import TokenStore

/// What `status` says about a stored session's DPoP binding (RFC 9449): the key's algorithm
/// and its public thumbprint (RFC 7638), never its private part, a proof or a nonce.
public struct DPoPStatus: Encodable, Equatable, Sendable {
    /// The key's JWS algorithm: `EdDSA` or `ES256`.
    public let algorithm: String
    /// The public key's JWK thumbprint (base64url SHA-256): what the server binds the tokens to.
    public let thumbprint: String

    /// The binding of `key`, `nil` for a bearer session.
    public init?(_ key: DPoPKey?) {
        guard let key else { return nil }
        algorithm = key.algorithm
        thumbprint = key.thumbprint
    }

    /// `DPoP-bound (EdDSA, key kPrK_qmx…)`, or `bearer` for a session without a key. Both are
    /// public values, checked to be printable: a store's algorithm is read as written.
    public static func line(_ status: DPoPStatus?) -> String {
        guard let status else { return "bearer" }
        return "DPoP-bound (\(TerminalText.safe(status.algorithm)), key \(status.thumbprint.prefix(8))…)"
    }
}
