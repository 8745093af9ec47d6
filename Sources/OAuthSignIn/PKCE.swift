import Foundation
import NetworkService

/// The random values of an authorization request (RFC 7636, RFC 6749 §10.12, OpenID Connect
/// Core §3.1.2.1) and their encodings. Each random value carries 256 bits from the system's
/// cryptographically secure generator.
enum PKCE {
    /// A code verifier: 32 random bytes, base64url without padding (43 characters of the
    /// unreserved set RFC 7636 §4.1 allows).
    static func makeVerifier() -> String { randomToken() }

    /// The S256 challenge of `verifier`: `BASE64URL(SHA256(ASCII(verifier)))` (RFC 7636 §4.2).
    static func challenge(of verifier: String) -> String {
        base64URL(SHA256.hash(Array(verifier.utf8)))
    }

    /// A random `state` or `nonce`: 32 bytes, base64url.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text, padded or not; `nil` when it is not base64url.
    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
