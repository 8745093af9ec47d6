package import Foundation

/// A DPoP proof (RFC 9449 §4): a JWS, signed by a ``DPoPSigner``, that a request carries in its
/// `DPoP` header.
///
/// Its JSON is written by hand, in the order of RFC 9449's examples, so that the RFC's proofs
/// come out byte for byte: the header `{"typ":"dpop+jwt","alg":…,"jwk":…}` and the payload
/// `{"jti":…,"htm":…,"htu":…,"iat":…[,"ath":…][,"nonce":…]}`.
///
/// - `jti`: 16 random bytes from the system's secure generator, base64url: a new one per proof,
///   a retry included.
/// - `htm`, `htu`: the request's method and its ``DPoPTarget``.
/// - `iat`: whole seconds since 1970 on the server's clock (the caller adds its clock offset).
/// - `ath`: base64url(SHA-256(access token)), on a request that carries one (§4.2).
/// - `nonce`: the server's latest nonce (``DPoPNonces``), once it gave one.
///
/// Its description and mirror name the method and URL only: no `jti`, `ath`, nonce or signature.
///
/// ```swift
/// let header = DPoPProof.header(for: signer)             // the same for every proof of a key: keep it
/// let proof = DPoPProof(method: .get, target: target, issuedAt: now, ath: DPoPProof.ath(of: token), nonce: nonce)
/// request.headerFields["DPoP"] = try proof.compact(header: header, signedBy: signer)
/// ```
package struct DPoPProof: Sendable, CustomStringConvertible, CustomReflectable {
    /// The request header that carries a proof.
    package static let headerName = "DPoP"
    /// The authorization scheme of a DPoP-bound access token (RFC 9449 §7.1): `Authorization: DPoP <token>`.
    package static let authorizationScheme = "DPoP"

    /// The proof's unique identifier.
    let jti: String
    /// The request's method.
    let htm: String
    /// The request's normalised URL.
    let htu: String
    /// When the proof was made, in whole seconds since 1970.
    let iat: Int64
    /// The hash of the access token the request carries, if any.
    let ath: String?
    /// The server's nonce, if it gave one.
    let nonce: String?

    /// A proof for a request of `method` to `target`, made at `issuedAt` on the server's clock,
    /// with a new random `jti`; `ath` is ``ath(of:)`` of the access token the request carries.
    package init(method: HTTPMethod, target: DPoPTarget, issuedAt: Date, ath: String? = nil, nonce: String? = nil) {
        self.init(jti: Self.makeJTI(), method: method, target: target, issuedAt: issuedAt, ath: ath, nonce: nonce)
    }

    /// A proof with the given `jti`: for tests that reproduce the RFC's proofs.
    init(jti: String, method: HTTPMethod, target: DPoPTarget, issuedAt: Date, ath: String? = nil, nonce: String? = nil) {
        self.jti = jti
        self.htm = method.rawValue
        self.htu = target.htu
        self.iat = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        self.ath = ath
        self.nonce = nonce
    }

    /// A new `jti`: 16 random bytes, base64url (22 characters).
    static func makeJTI() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return Base64URL.encode((0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> UInt64(8 * ($0 % 8))) })
    }

    /// The `ath` of `token`: base64url(SHA-256(ASCII(token))) (RFC 9449 §4.2).
    package static func ath(of token: AccessToken) -> String {
        Base64URL.encode(SHA256.hash(Array(token.rawValue.utf8)))
    }

    /// The encoded protected header of every proof `signer` signs: constant per key, so a
    /// caller that makes many proofs computes it once.
    package static func header(for signer: any DPoPSigner) -> String {
        header(algorithm: signer.algorithm, publicKey: signer.publicKey)
    }

    /// The encoded protected header `{"typ":"dpop+jwt","alg":…,"jwk":…}` for `algorithm` and `publicKey`.
    static func header(algorithm: String, publicKey: DPoPPublicKey) -> String {
        var json = "{\"typ\":\"dpop+jwt\","
        JSONStringLiteral.appendMember("alg", algorithm, to: &json)
        json += ",\"jwk\":" + publicKey.jwk + "}"
        return Base64URL.encode(Array(json.utf8))
    }

    /// The payload's JSON, in RFC 9449's order.
    var payload: String {
        var json = "{"
        JSONStringLiteral.appendMember("jti", jti, to: &json)
        json += ","
        JSONStringLiteral.appendMember("htm", htm, to: &json)
        json += ","
        JSONStringLiteral.appendMember("htu", htu, to: &json)
        json += ",\"iat\":" + String(iat)
        if let ath {
            json += ","
            JSONStringLiteral.appendMember("ath", ath, to: &json)
        }
        if let nonce {
            json += ","
            JSONStringLiteral.appendMember("nonce", nonce, to: &json)
        }
        return json + "}"
    }

    /// The proof in JWS compact serialization, `header.payload.signature`, as the `DPoP` header
    /// carries it, signed by `signer`; `header` is ``header(for:)`` of the same signer, when kept.
    /// - Throws: the signer's ``DPoPSigningError``, or one when it returned no signature.
    package func compact(header: String? = nil, signedBy signer: any DPoPSigner) throws(DPoPSigningError) -> String {
        var input = header ?? Self.header(for: signer)
        input += "."
        input += Base64URL.encode(Array(payload.utf8))
        let signature = try signer.sign(Array(input.utf8))
        guard !signature.isEmpty else { throw DPoPSigningError("the signer returned an empty signature") }
        return input + "." + Base64URL.encode(signature)
    }

    /// For example `DPoPProof(POST https://server.example.com/token)`.
    package var description: String { "DPoPProof(\(htm) \(htu))" }

    /// A mirror that shows the description only, so `dump(_:)` shows no `jti`, `ath` or nonce.
    package var customMirror: Mirror { Mirror(self, children: ["proof": description]) }
}
