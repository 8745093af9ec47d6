import Foundation
@testable import NetworkService
import TokenStore

/// A DPoP proof as a server reads it (RFC 9449 §4.3): its header and payload members, and
/// whether its EdDSA signature verifies under the key its `jwk` carries.
struct ReceivedDPoPProof: Sendable {
    let compact: String
    /// The protected header's members (`typ`, `alg`, `jwk`).
    let header: [String: JSONValueBox]
    /// The payload's members (`jti`, `htm`, `htu`, `iat`, `ath`, `nonce`).
    let payload: [String: JSONValueBox]
    /// Whether the signature verifies with the `jwk` (an OKP Ed25519 key) over `header.payload`.
    let signatureVerifies: Bool
    /// The RFC 7638 thumbprint of the `jwk`, when it is an Ed25519 key.
    let thumbprint: String?

    /// The proof in `compact`; `nil` when it is not three base64url parts of JSON objects.
    init?(_ compact: String) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let header = JSONValueBox.object(Data(headerBytes)), let payload = JSONValueBox.object(Data(payloadBytes)),
              let signature = Base64URL.decode(parts[2]) else { return nil }
        self.compact = compact
        self.header = header
        self.payload = payload
        let jwk = header["jwk"]?.object ?? [:]
        if jwk["kty"]?.string == "OKP", jwk["crv"]?.string == "Ed25519", let x = jwk["x"]?.string.flatMap(Base64URL.decode) {
            thumbprint = DPoPPublicKey.okp(crv: "Ed25519", x: x).thumbprint
            #if EncryptedTokenStore
            signatureVerifies = Ed25519.isValidSignature(signature, of: Array((parts[0] + "." + parts[1]).utf8), publicKey: x)
            #else
            signatureVerifies = false
            #endif
        } else {
            thumbprint = nil
            signatureVerifies = false
        }
    }

    var typ: String? { header["typ"]?.string }
    var alg: String? { header["alg"]?.string }
    var jti: String? { payload["jti"]?.string }
    var htm: String? { payload["htm"]?.string }
    var htu: String? { payload["htu"]?.string }
    var iat: Double? { payload["iat"]?.number }
    var ath: String? { payload["ath"]?.string }
    var nonce: String? { payload["nonce"]?.string }
    /// Whether the header's `jwk` has a private member (`d`): it never may.
    var jwkHasPrivatePart: Bool { header["jwk"]?.object?["d"] != nil }
}

/// A JSON value read with `JSONSerialization`, with the accessors the proof checks need.
struct JSONValueBox: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is an immutable tree of Foundation property-list values
    // (strings, numbers, arrays, dictionaries) read once from bytes and never mutated.
    let value: Any

    static func object(_ data: Data) -> [String: JSONValueBox]? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return object.mapValues(JSONValueBox.init)
    }

    var string: String? { value as? String }
    var number: Double? { (value as? NSNumber)?.doubleValue }
    var object: [String: JSONValueBox]? { (value as? [String: Any])?.mapValues(JSONValueBox.init) }
}
