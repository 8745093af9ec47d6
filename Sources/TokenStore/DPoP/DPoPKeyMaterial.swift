/// The private part of a ``DPoPKey``: what the SDK signs with. Never printed.
package enum DPoPKeyMaterial: Sendable, Equatable {
    /// A software key: the JWK's `d` (ES256's private scalar, or an Ed25519 seed), 32 bytes, in
    /// memory that is wiped when freed.
    case privateKey(DPoPPrivateKeyBytes)
    /// A Secure Enclave key's `dataRepresentation`: an opaque blob that only the Secure Enclave
    /// of the device that made it can use; the key itself never leaves it.
    case secureEnclave([UInt8])
    /// A key an app keeps itself (a hardware token, a key service), by the app's reference.
    case external(String)

    /// `software`, `secureEnclave` or `external`: what a mirror may show.
    package var kind: String {
        switch self {
        case .privateKey: "software"
        case .secureEnclave: "secureEnclave"
        case .external: "external"
        }
    }

    /// Whether both are the same key material (private keys compared in constant time).
    package static func == (lhs: DPoPKeyMaterial, rhs: DPoPKeyMaterial) -> Bool {
        switch (lhs, rhs) {
        case let (.privateKey(left), .privateKey(right)): left.hasSameBytes(as: right)
        case let (.secureEnclave(left), .secureEnclave(right)): left == right
        case let (.external(left), .external(right)): left == right
        default: false
        }
    }
}
