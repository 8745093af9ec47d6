import Hummingbird

// `HTTPField` itself is not among Hummingbird's re-exports; `HTTPFields.Element` is the same type.
extension HTTPFields.Element.Name {
    /// `DPoP`: the proof of possession of a request (RFC 9449 §4.1).
    static let dpop = named("DPoP")
    /// `DPoP-Nonce`: the nonce the next proofs must carry (RFC 9449 §8.1, §9).
    static let dpopNonce = named("DPoP-Nonce")

    /// A field name known to be valid: both names above are RFC 9110 tokens, so the
    /// initialiser cannot fail for them.
    private static func named(_ name: String) -> Self {
        guard let field = Self(name) else { preconditionFailure("not an HTTP field name: \(name)") }
        return field
    }
}
