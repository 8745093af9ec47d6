import NetworkService
#if canImport(CryptoKit)
import CryptoKit
#endif

/// A ``DPoPKey`` as format version 2 of the store writes it, inside `credentials`:
///
/// ```json
/// "dpopKey":{"alg":"ES256","d":"<base64url>","jwk":{"crv":"P-256","kty":"EC","x":"…","y":"…"}}
/// ```
///
/// with exactly one of `d` (a software key: 32 bytes, RFC 7518 §6.2.2.1 / RFC 8037 §2), `se` (a
/// Secure Enclave key's blob, base64url) or `ref` (an app's reference to a key it keeps). Reading
/// checks everything it can: a known algorithm, the `jwk` of that algorithm, 32-byte
/// coordinates, and, for `d`, that `jwk` is the public key of `d` (EdDSA with libsodium; ES256
/// where CryptoKit is available). A failure names the field, never its value.
struct StoredDPoPKey: Codable {
    var alg: String
    var d: String?
    var se: String?
    var ref: String?
    var jwk: StoredJWK

    /// The `jwk` member: the public key, as RFC 7517 writes it.
    struct StoredJWK: Codable {
        var kty: String
        var crv: String
        var x: String
        var y: String?
        /// Never written; read only to refuse a `jwk` that carries a private key.
        var d: String?
    }

    /// The most bytes a Secure Enclave blob may have (Apple's are a few hundred).
    static let maximumBlobByteCount = 4_096
    /// The most characters of an app's key reference.
    static let maximumReferenceLength = 1_024

    /// The stored form of `key`, its private bytes encoded into `d`.
    init(_ key: DPoPKey) {
        alg = key.algorithm
        switch key.coordinates {
        case let .ec(crv, x, y):
            jwk = StoredJWK(kty: "EC", crv: crv, x: Base64URL.encode(x), y: Base64URL.encode(y))
        case let .okp(crv, x):
            jwk = StoredJWK(kty: "OKP", crv: crv, x: Base64URL.encode(x))
        }
        switch key.material {
        case let .privateKey(bytes):
            var copy = bytes.withUnsafeBytes { Array($0) }
            d = Base64URL.encode(copy)
            DPoPPrivateKeyBytes.wipe(&copy)
        case let .secureEnclave(blob):
            se = Base64URL.encode(blob)
        case let .external(reference):
            ref = reference
        }
    }

    /// The key, checked.
    /// - Throws: ``CredentialsFieldError`` naming the first field that is wrong.
    func key() throws(CredentialsFieldError) -> DPoPKey {
        func wrong(_ field: String, _ problem: String) -> CredentialsFieldError {
            CredentialsFieldError(field: "dpopKey." + field, problem: problem)
        }
        guard DPoPKey.algorithms.contains(alg) else {
            throw wrong("alg", "is not an algorithm this code keeps keys for (\(DPoPKey.algorithms.joined(separator: ", ")))")
        }
        guard [d, se, ref].compactMap({ $0 }).count == 1 else {
            throw CredentialsFieldError(field: "dpopKey", problem: "must have exactly one of `d`, `se` and `ref`")
        }
        let coordinates = try publicMembers(wrong)
        let material: DPoPKeyMaterial
        if let d {
            material = .privateKey(try privateKey(d, matching: coordinates, wrong))
        } else if let se {
            guard alg == "ES256" else { throw wrong("se", "is a Secure Enclave key, which is ES256 only") }
            guard se.utf8.count <= (Self.maximumBlobByteCount * 4 + 2) / 3, let blob = Base64URL.decode(se), !blob.isEmpty else {
                throw wrong("se", "is not base64url of 1 to \(Self.maximumBlobByteCount) bytes")
            }
            material = .secureEnclave(blob)
        } else {
            let reference = ref ?? ""
            guard (1...Self.maximumReferenceLength).contains(reference.unicodeScalars.count),
                  !reference.unicodeScalars.contains(where: Redaction.isUnprintable) else {
                throw wrong("ref", "is not 1 to \(Self.maximumReferenceLength) printable characters")
            }
            material = .external(reference)
        }
        return DPoPKey(algorithm: alg, coordinates: coordinates, material: material)
    }

    /// The public members, checked against the algorithm.
    private func publicMembers(_ wrong: (String, String) -> CredentialsFieldError) throws(CredentialsFieldError) -> DPoPKeyCoordinates {
        guard jwk.d == nil else { throw wrong("jwk.d", "is present: the public key must not carry its private part") }
        func coordinate(_ name: String, _ text: String?) throws(CredentialsFieldError) -> [UInt8] {
            guard let text, text.utf8.count == 43, let bytes = Base64URL.decode(text), bytes.count == 32 else {
                throw wrong("jwk." + name, "is not base64url of 32 bytes")
            }
            return bytes
        }
        switch alg {
        case "ES256":
            guard jwk.kty == "EC", jwk.crv == "P-256" else { throw wrong("jwk", "is not an EC P-256 key, as ES256 needs") }
            return .ec(crv: jwk.crv, x: try coordinate("x", jwk.x), y: try coordinate("y", jwk.y))
        default:
            guard jwk.kty == "OKP", jwk.crv == "Ed25519", jwk.y == nil else {
                throw wrong("jwk", "is not an OKP Ed25519 key, as EdDSA needs")
            }
            return .okp(crv: jwk.crv, x: try coordinate("x", jwk.x))
        }
    }

    /// `d`'s 32 bytes in memory of their own, checked against `coordinates` where this build can.
    private func privateKey(
        _ d: String, matching coordinates: DPoPKeyCoordinates, _ wrong: (String, String) -> CredentialsFieldError
    ) throws(CredentialsFieldError) -> DPoPPrivateKeyBytes {
        // 43 characters encode 32 bytes; anything longer is refused before it is decoded.
        guard d.utf8.count <= 64, var bytes = Base64URL.decode(d) else { throw wrong("d", "is not base64url of 32 bytes") }
        defer { DPoPPrivateKeyBytes.wipe(&bytes) }
        guard bytes.count == 32 else { throw wrong("d", "is \(bytes.count) bytes, not 32") }
        if let derived = Self.publicKey(of: bytes, algorithm: alg), derived != coordinates {
            throw wrong("jwk", "is not the public key of `d`")
        }
        guard let key = DPoPPrivateKeyBytes(copying: bytes) else { throw wrong("d", "could not be kept in memory") }
        return key
    }

    /// The public members of private key `d` for `algorithm`, where this build can derive them;
    /// for an ES256 `d` that is not a P-256 scalar, members no key has (so the check fails).
    static func publicKey(of d: [UInt8], algorithm: String) -> DPoPKeyCoordinates? {
        switch algorithm {
        case "EdDSA":
            #if EncryptedTokenStore
            guard let key = Ed25519.PrivateKey(seed: d) else { return nil }
            return .okp(crv: "Ed25519", x: key.publicKey)
            #else
            return nil
            #endif
        case "ES256":
            #if canImport(CryptoKit)
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: d) else { return .ec(crv: "", x: [], y: []) }
            let point = Array(key.publicKey.rawRepresentation)
            return .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
            #else
            return nil
            #endif
        default:
            return nil
        }
    }
}
