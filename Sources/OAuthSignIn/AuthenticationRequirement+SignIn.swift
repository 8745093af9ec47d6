import Foundation
import NetworkService
import SessionEngine

// How a sign-in asks for an AuthenticationRequirement (a step-up, RFC 9470), and checks that
// the ID token shows it met (OpenID Connect Core §2, §3.1.2.1).

extension AuthenticationRequirement {
    /// The request parameters that ask for it: `acr_values` (space-separated), `max_age` and
    /// `prompt=login`, each only when asked for.
    var requestFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if !acrValues.isEmpty { fields.append(("acr_values", acrValues.joined(separator: " "))) }
        if let maxAge { fields.append(("max_age", String(max(0, maxAge)))) }
        if promptsLogin { fields.append(("prompt", "login")) }
        return fields
    }

    /// Checks that `claims` show this requirement met by a sign-in that began at `startedAt`
    /// (this device's clock), read at `now` (this device's clock) with the answer's `Date`
    /// header `serverDate`, allowing `skew`.
    /// - Throws: ``SignInError/Kind/authenticationRequirementNotMet`` saying what is missing.
    func check(_ claims: IDTokenClaims?, startedAt: Date, now: Date, serverDate: Date?, skew: TimeInterval) throws(SignInError) {
        func notMet(_ why: String) -> SignInError {
            SignInError.authenticationRequirementNotMet.with(detail: "Asked for \(self); \(why).")
        }
        guard let claims else {
            throw notMet("the sign-in brought no ID token to show it (ask for the openid scope)")
        }
        let skew = max(0, min(skew, 86_400))
        if !acrValues.isEmpty {
            guard let acr = claims["acr"]?.string else { throw notMet("the ID token has no acr") }
            guard acrValues.contains(acr) else {
                throw notMet("the ID token's acr is \(Self.quoted(acr)), not one of those")
            }
        }
        let authTime = claims["auth_time"]?.number.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e11 ? Date(timeIntervalSince1970: $0) : nil }
        // The server's times read on the server's clock, as the ID token's own checks read them.
        let serverNow = IDTokenValidator.serverTime(now: now, serverDate: serverDate)
        let offset = serverNow.timeIntervalSince(now)
        if let maxAge {
            guard let authTime else { throw notMet("the ID token has no usable auth_time") }
            guard serverNow.timeIntervalSince(authTime) <= TimeInterval(maxAge) + skew else {
                throw notMet("the user authenticated \(Int(serverNow.timeIntervalSince(authTime))) s ago (auth_time)")
            }
        }
        if promptsLogin, let authTime, authTime < startedAt.addingTimeInterval(offset - skew) {
            throw notMet("the ID token's auth_time is before the sign-in began: the server did not ask the user again")
        }
    }

    /// A server's value in a message: at most 32 characters, control characters escaped.
    private static func quoted(_ value: String) -> String {
        let scalars = value.unicodeScalars
        var text = String(String.UnicodeScalarView(scalars.prefix(32)))
        if scalars.count > 32 { text += "…" }
        return "`" + Redaction.printable(text) + "`"
    }
}
