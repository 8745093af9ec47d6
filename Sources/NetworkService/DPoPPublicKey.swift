/// The public key of a ``DPoPSigner``, as a DPoP proof carries it in its `jwk` header
/// (RFC 9449 §4.2) and a server binds tokens to it (its ``thumbprint``).
///
/// Make one from the key's raw public coordinates:
///
/// ```swift
/// let point = Array(privateKey.publicKey.rawRepresentation)          // CryptoKit P-256: x ‖ y
/// let key = DPoPPublicKey.ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
/// let ed = DPoPPublicKey.okp(crv: "Ed25519", x: Array(edKey.publicKey.rawRepresentation))
/// ```
///
/// It holds no private part, so a proof cannot carry one. Its description shows the key type,
/// the curve and the thumbprint.
public struct DPoPPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The JWK members the key is made of, by key type.
    package enum Parameters: Sendable, Hashable {
        case ec(crv: String, x: [UInt8], y: [UInt8])
        case okp(crv: String, x: [UInt8])
        case rsa(n: [UInt8], e: [UInt8])
    }

    package let parameters: Parameters

    private init(_ parameters: Parameters) {
        self.parameters = parameters
    }

    /// An elliptic-curve key (JWK `kty` `EC`, RFC 7518 §6.2): for ES256, `crv` is `"P-256"` and
    /// `x` and `y` are the point's coordinates, 32 bytes each, big-endian.
    public static func ec(crv: String, x: [UInt8], y: [UInt8]) -> DPoPPublicKey {
        DPoPPublicKey(.ec(crv: crv, x: x, y: y))
    }

    /// An octet key pair (JWK `kty` `OKP`, RFC 8037 §2): for EdDSA, `crv` is `"Ed25519"` and `x`
    /// the 32-byte public key.
    public static func okp(crv: String, x: [UInt8]) -> DPoPPublicKey {
        DPoPPublicKey(.okp(crv: crv, x: x))
    }

    /// An RSA key (JWK `kty` `RSA`, RFC 7518 §6.3): for thumbprints only (RFC 7638's example);
    /// no signer of the SDK uses one.
    static func rsa(n: [UInt8], e: [UInt8]) -> DPoPPublicKey {
        DPoPPublicKey(.rsa(n: n, e: e))
    }

    /// The key's JWK thumbprint (RFC 7638, SHA-256, base64url): what a server binds tokens to
    /// (`cnf.jkt`, RFC 9449 §6) and an authorization request names (`dpop_jkt`, §10). For
    /// example `0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I`.
    public var thumbprint: String {
        Base64URL.encode(SHA256.hash(Array(thumbprintInput.utf8)))
    }

    /// RFC 7638 §3.2: the required members only, in lexicographic order, without whitespace.
    var thumbprintInput: String {
        var json = "{"
        switch parameters {
        case let .ec(crv, x, y):
            JSONStringLiteral.appendMember("crv", crv, to: &json)
            json += ",\"kty\":\"EC\","
            JSONStringLiteral.appendMember("x", Base64URL.encode(x), to: &json)
            json += ","
            JSONStringLiteral.appendMember("y", Base64URL.encode(y), to: &json)
        case let .okp(crv, x):
            JSONStringLiteral.appendMember("crv", crv, to: &json)
            json += ",\"kty\":\"OKP\","
            JSONStringLiteral.appendMember("x", Base64URL.encode(x), to: &json)
        case let .rsa(n, e):
            JSONStringLiteral.appendMember("e", Base64URL.encode(e), to: &json)
            json += ",\"kty\":\"RSA\","
            JSONStringLiteral.appendMember("n", Base64URL.encode(n), to: &json)
        }
        return json + "}"
    }

    /// The key as a proof's `jwk` header member, in the order of RFC 9449's examples
    /// (`kty`, `x`, `y`, `crv` for EC; `kty`, `crv`, `x` for OKP, as RFC 8037 writes it).
    var jwk: String {
        var json = "{"
        switch parameters {
        case let .ec(crv, x, y):
            json += "\"kty\":\"EC\","
            JSONStringLiteral.appendMember("x", Base64URL.encode(x), to: &json)
            json += ","
            JSONStringLiteral.appendMember("y", Base64URL.encode(y), to: &json)
            json += ","
            JSONStringLiteral.appendMember("crv", crv, to: &json)
        case let .okp(crv, x):
            json += "\"kty\":\"OKP\","
            JSONStringLiteral.appendMember("crv", crv, to: &json)
            json += ","
            JSONStringLiteral.appendMember("x", Base64URL.encode(x), to: &json)
        case let .rsa(n, e):
            json += "\"kty\":\"RSA\","
            JSONStringLiteral.appendMember("n", Base64URL.encode(n), to: &json)
            json += ","
            JSONStringLiteral.appendMember("e", Base64URL.encode(e), to: &json)
        }
        return json + "}"
    }

    /// For example `DPoPPublicKey(EC P-256, thumbprint 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I)`.
    public var description: String {
        let kind = switch parameters {
        case let .ec(crv, _, _): "EC \(Redaction.printable(crv))"
        case let .okp(crv, _): "OKP \(Redaction.printable(crv))"
        case .rsa: "RSA"
        }
        return "DPoPPublicKey(\(kind), thumbprint \(thumbprint))"
    }
}
