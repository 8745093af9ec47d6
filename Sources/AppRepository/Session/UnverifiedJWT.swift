import Foundation

/// The claims of a JWT access token, read without checking its signature: a hint for when
/// to refresh (`exp`, `iat`) and whose session it is (`sub`), never a security decision.
/// The server checks the token; the client only schedules.
struct UnverifiedJWT: Sendable {
    /// `exp`: when the token expires, by the server's clock.
    let expiresAt: Date?
    /// `iat`: when it was issued, by the server's clock.
    let issuedAt: Date?
    /// `sub`: the account it belongs to.
    let subject: String?
    /// The names of the payload's claims (never their values): what an error can tell the
    /// adopter about a token that names no account.
    let claimNames: [String]

    /// The claims of `token`; `nil` when it is not a JWT (three dot-separated parts whose
    /// middle one is base64url JSON).
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecode(parts[1]),
              let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return nil }
        func date(_ key: String) -> Date? {
            guard let seconds = (object[key] as? NSNumber)?.doubleValue, seconds.isFinite, seconds > 0 else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        expiresAt = date("exp")
        issuedAt = date("iat")
        claimNames = object.keys.sorted()
        switch object["sub"] {
        case let text as String: subject = text
        case let number as NSNumber: subject = number.stringValue
        default: subject = nil
        }
    }

    /// The token's lifetime, when both `exp` and `iat` are there and make sense.
    var lifetime: TimeInterval? {
        guard let expiresAt, let issuedAt, expiresAt > issuedAt else { return nil }
        return expiresAt.timeIntervalSince(issuedAt)
    }

    private static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
