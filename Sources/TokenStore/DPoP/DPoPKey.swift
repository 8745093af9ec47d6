public import NetworkService

/// The key a DPoP-bound session (RFC 9449) signs its proofs with, kept in the stored
/// ``Credentials`` beside the tokens it binds: every process, extension and machine that loads
/// the session signs with the same key, and a session never changes key without a new sign-in.
///
/// It holds the key's ``algorithm``, its ``publicKey`` and ``thumbprint``, and the private part
/// the SDK signs with: the private key itself (a software key, in memory that is wiped when
/// freed), a Secure Enclave key's opaque blob (usable only on the device that made it), or a
/// reference to a key an app keeps elsewhere. The private part is never printed:
///
/// ```swift
/// print(key)   // DPoPKey(ES256, jkt 0ZcOCORZ…)
/// ```
///
/// The session engine makes keys at sign-in; a store only keeps them.
public struct DPoPKey: Sendable, Equatable {
    /// The JWS algorithm the key signs with: `"ES256"` or `"EdDSA"`.
    public var algorithm: String { storage.algorithm }
    /// The public half: what a proof carries in its `jwk` and a server binds tokens to.
    public var publicKey: DPoPPublicKey { storage.coordinates.publicKey }
    /// The public key's JWK thumbprint (RFC 7638, base64url SHA-256): the `jkt` a server binds
    /// the session's tokens to.
    public var thumbprint: String { storage.thumbprint }
    /// The public key's members, as the store writes them in `jwk`.
    package var coordinates: DPoPKeyCoordinates { storage.coordinates }
    /// The private part: never printed, never in an error.
    package var material: DPoPKeyMaterial { storage.material }

    /// The key's parts, in one immutable object: a `Credentials` value (copied through every
    /// call and refresh) carries one reference, not the key's members.
    private let storage: Storage

    private final class Storage: Sendable {
        let algorithm: String
        let thumbprint: String
        let coordinates: DPoPKeyCoordinates
        let material: DPoPKeyMaterial

        init(algorithm: String, coordinates: DPoPKeyCoordinates, material: DPoPKeyMaterial) {
            self.algorithm = algorithm
            self.coordinates = coordinates
            self.material = material
            thumbprint = coordinates.publicKey.thumbprint
        }
    }

    /// The algorithms a stored key may have.
    package static let algorithms = ["ES256", "EdDSA"]

    /// A key of `algorithm` whose public members are `coordinates` and private part `material`.
    /// The caller makes sure they belong together (the store's reader checks what it can).
    package init(algorithm: String, coordinates: DPoPKeyCoordinates, material: DPoPKeyMaterial) {
        storage = Storage(algorithm: algorithm, coordinates: coordinates, material: material)
    }

    /// Two keys are equal when their algorithm, public members and private part are.
    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        lhs.storage === rhs.storage || (lhs.algorithm == rhs.algorithm && lhs.coordinates == rhs.coordinates
                                         && lhs.material == rhs.material)
    }
}

extension DPoPKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// The algorithm and the start of the thumbprint, for example `DPoPKey(ES256, jkt 0ZcOCORZ…)`.
    public var description: String {
        "DPoPKey(\(Redaction.printable(algorithm)), jkt \(thumbprint.prefix(8))…)"
    }

    /// The same as `description`.
    public var debugDescription: String { description }
}

extension DPoPKey: CustomReflectable {
    /// A mirror with the algorithm, the thumbprint and the kind of private part, never the part itself.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "thumbprint": thumbprint, "material": material.kind])
    }
}
