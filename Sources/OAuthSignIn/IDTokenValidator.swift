import Foundation
import NetworkService
import SessionEngine

/// The checks of OpenID Connect Core §3.1.3.7 an ID token from the token endpoint gets here,
/// in this order: a JWT with a JSON payload, `iss`, `aud`, `azp`, `exp`, `iat`, `nonce`, `sub`.
/// The signature is not verified: see ``IDTokenClaims``.
enum IDTokenValidator {
    /// The checked claims of `idToken`.
    /// - Parameters:
    ///   - nonce: The request's nonce, which the token must carry; `nil` when none was sent.
    ///   - serverDate: The `Date` header of the answer that carried the token: `exp` and `iat`
    ///     are the server's times, so they are read against this device's time plus the offset
    ///     between the two clocks (``serverTime(now:serverDate:)``).
    /// - Throws: ``SignInError/idTokenInvalid(_:)`` naming the first check that failed.
    static func claims(of idToken: String, provider: OAuthProvider, nonce: String?,
                       serverDate: Date? = nil) throws(SignInError) -> IDTokenClaims {
        func invalid(_ check: SignInError.IDTokenCheck, _ reason: String) -> SignInError {
            SignInError.idTokenInvalid(check).with(detail: reason)
        }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = PKCE.base64URLDecode(parts[1]),
              let claims = try? JSONDecoder().decode([String: JSONValue].self, from: payload) else {
            throw invalid(.format, "The ID token is not a JWT whose payload is a JSON object.")
        }
        let issuer = provider.metadata.issuer.absoluteString
        guard let iss = claims["iss"]?.string, Discovery.normalized(iss) == Discovery.normalized(issuer) else {
            throw invalid(.issuer, "Its `iss` is \(claims["iss"]?.string.map { "`\($0)`" } ?? "missing"), not `\(issuer)`.")
        }
        let audience: [String]
        switch claims["aud"] {
        case let .string(single)?: audience = [single]
        case let .array(items)?: audience = items.compactMap(\.string)
        default: audience = []
        }
        guard audience.contains(provider.clientID) else {
            throw invalid(.audience, "Its `aud` (\(audience.joined(separator: ", "))) does not contain the client id `\(provider.clientID)`.")
        }
        let azp = claims["azp"]?.string
        if audience.count > 1 || azp != nil {
            guard azp == provider.clientID else {
                throw invalid(.authorizedParty, "It has several audiences and its `azp` is "
                    + "\(azp.map { "`\($0)`" } ?? "missing"), not the client id `\(provider.clientID)`.")
            }
        }
        let now = serverTime(now: provider.clock.now(), serverDate: serverDate)
        let skew = max(0, min(provider.clockSkew, 86_400))
        guard let exp = date(claims["exp"]), exp.addingTimeInterval(skew) > now else {
            throw invalid(.expiry, claims["exp"] == nil ? "It has no `exp`." : "It expired (`exp`) more than \(Int(skew)) s ago.")
        }
        guard let iat = date(claims["iat"]), iat <= now.addingTimeInterval(skew) else {
            throw invalid(.issuedAt, claims["iat"] == nil ? "It has no `iat`." : "It was issued (`iat`) more than \(Int(skew)) s in the future.")
        }
        if let nonce {
            // Compared, never printed: the nonce is a secret of the request.
            guard claims["nonce"]?.string == nonce else {
                throw invalid(.nonce, claims["nonce"] == nil ? "It has no `nonce`." : "Its `nonce` is not the request's.")
            }
        }
        guard let sub = claims["sub"]?.string, !sub.isEmpty else {
            throw invalid(.subject, "It has no `sub`.")
        }
        if let problem = Self.problem(withSubject: sub) {
            throw invalid(.subject, "Its `sub` \(problem).")
        }
        return IDTokenClaims(sub: sub, iss: iss, aud: audience, exp: exp, iat: iat, nonce: claims["nonce"]?.string,
                             azp: azp, claims: claims)
    }

    /// This device's `now` moved by the offset to the server's clock that `serverDate` (a `Date`
    /// header, whole seconds) shows: unchanged within ±1 s (the header's resolution), without a
    /// header, or beyond a day (a broken header), as the engine reads the server's times.
    static func serverTime(now: Date, serverDate: Date?) -> Date {
        guard let serverDate else { return now }
        let offset = serverDate.timeIntervalSince(now)
        guard offset.isFinite, abs(offset) > 1, abs(offset) <= 86_400 else { return now }
        return serverDate
    }

    /// A NumericDate claim, within 1970 … 5138 (anything else counts as missing).
    private static func date(_ value: JSONValue?) -> Date? {
        guard let seconds = value?.number, seconds.isFinite, seconds >= 0, seconds < 1e11 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Why `sub` is no account id to keep, or `nil`: OpenID Connect Core §2 has it at most 255
    /// ASCII characters; one with a control character (an escape sequence for the terminal that
    /// shows it) or longer than 255 characters is refused.
    static func problem(withSubject sub: String) -> String? {
        if sub.unicodeScalars.count > 255 { return "is longer than 255 characters" }
        if sub.unicodeScalars.contains(where: Redaction.isUnprintable) { return "holds a control character" }
        return nil
    }
}
