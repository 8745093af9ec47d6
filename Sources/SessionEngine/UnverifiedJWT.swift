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
    /// Whether `exp` and `iat` are both whole seconds, as most JWT libraries write them: the
    /// server then truncated (or rounded) the moment of issue, by up to a second.
    private let wholeSeconds: Bool

    /// The claims of `token`; `nil` when it is not a JWT (three dot-separated parts whose
    /// middle one is base64url JSON).
    init?(_ token: String) {
        // Two dots or no JWT: an opaque token is told apart without allocating (every refresh asks).
        var dots = 0
        for byte in token.utf8 where byte == UInt8(ascii: ".") { dots += 1 }
        guard dots == 2 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecode(parts[1]),
              let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return nil }
        // A NumericDate past year 4001 (`Date.distantFuture`: `exp` 1e19, say) is no time a
        // server means: taken as absent, like one that is not a positive number, so no
        // expiry computed from it can overflow anything that counts seconds.
        func date(_ key: String) -> Date? {
            guard let seconds = (object[key] as? NSNumber)?.doubleValue, seconds.isFinite, seconds > 0,
                  seconds <= Self.latestTime else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        expiresAt = date("exp")
        issuedAt = date("iat")
        claimNames = object.keys.sorted()
        wholeSeconds = [expiresAt, issuedAt].allSatisfy { $0.map { $0.timeIntervalSince1970.rounded() == $0.timeIntervalSince1970 } ?? false }
        switch object["sub"] {
        case let text as String: subject = text
        case let number as NSNumber: subject = number.stringValue
        default: subject = nil
        }
    }

    /// The token's lifetime to count from the moment it was requested, when both `exp` and
    /// `iat` are there and make sense: `exp − iat`, less one second when both are whole
    /// seconds. A server that truncates wrote an `iat` up to a second before it issued the
    /// token, so its token dies up to a second sooner than `exp − iat` after the issue: without
    /// the second, half the refreshes against such a server came only after a 401. (At most
    /// half the lifetime is taken off, for tokens of two seconds or less.)
    var lifetime: TimeInterval? {
        guard let expiresAt, let issuedAt, expiresAt > issuedAt else { return nil }
        let stated = expiresAt.timeIntervalSince(issuedAt)
        guard wholeSeconds else { return stated }
        return max(stated - 1, stated / 2)
    }

    /// The latest `exp` or `iat` taken as a time: `Date.distantFuture` (the year 4001), in
    /// seconds since 1970.
    static let latestTime = Date.distantFuture.timeIntervalSince1970

    private static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
