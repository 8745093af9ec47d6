package import NetworkService

/// The public members of a stored DPoP key (its JWK without the private `d`), kept beside the
/// ``DPoPPublicKey`` they make so that the store can write them: `DPoPPublicKey` shows no
/// coordinates outside NetworkService.
package enum DPoPKeyCoordinates: Sendable, Hashable {
    /// An EC key (`kty` `EC`): for ES256, `crv` `P-256` and 32-byte `x` and `y`.
    case ec(crv: String, x: [UInt8], y: [UInt8])
    /// An octet key pair (`kty` `OKP`): for EdDSA, `crv` `Ed25519` and the 32-byte `x`.
    case okp(crv: String, x: [UInt8])

    /// The public key these members make.
    package var publicKey: DPoPPublicKey {
        switch self {
        case let .ec(crv, x, y): .ec(crv: crv, x: x, y: y)
        case let .okp(crv, x): .okp(crv: crv, x: x)
        }
    }
}
