public import Foundation
public import SessionEngine

/// The claims of an OpenID Connect ID token, after the checks of OpenID Connect Core
/// §3.1.3.7 this SDK makes: `iss` is the provider's issuer, `aud` contains the client id
/// (and `azp` is the client id when there are several audiences), `exp` is not past and
/// `iat` not in the future (each with the provider's ``OAuthProvider/clockSkew``), `nonce`
/// is the request's, `sub` is there.
///
/// **The signature is not verified.** The ID token comes straight from the token endpoint,
/// over TLS, in answer to a request this client authenticated (with its secret or its PKCE
/// verifier), which OpenID Connect Core §3.1.3.7 (6) allows: "the TLS server validation MAY
/// be used to validate the issuer in place of checking the token signature". Do not hand an
/// ID token to another party as a proof of identity: that party must verify it.
///
/// ```swift
/// let result = try await session.signIn(with: .device(provider, scopes: ["openid", "email"]) { show($0) })
/// print(result.idToken?.sub ?? "-", result.idToken?["email"]?.string ?? "-")
/// ```
///
/// Its description shows `sub`, `iss`, `aud` and `exp`; never the `nonce`.
public struct IDTokenClaims: Sendable, Hashable {
    /// `sub`: the user, the session's account id.
    public let sub: String
    /// `iss`: the issuer.
    public let iss: String
    /// `aud`: the audiences (a single string in the token becomes one element).
    public let aud: [String]
    /// `exp`: when the ID token expires.
    public let exp: Date
    /// `iat`: when it was issued.
    public let iat: Date
    /// `nonce`, as sent in the authorization request (none in the device flow).
    public let nonce: String?
    /// `azp`: the authorized party, when there is one.
    public let azp: String?
    /// Every claim, by name (`email`, `name`, `auth_time`…).
    public let claims: [String: JSONValue]

    /// The claim called `name`, if the token has it.
    public subscript(name: String) -> JSONValue? { claims[name] }

    init(sub: String, iss: String, aud: [String], exp: Date, iat: Date, nonce: String?, azp: String?,
         claims: [String: JSONValue]) {
        self.sub = sub
        self.iss = iss
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.nonce = nonce
        self.azp = azp
        self.claims = claims
    }
}

extension IDTokenClaims: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `IDTokenClaims(sub: 42, iss: https://…, aud: [cli], exp: 2026-…)`.
    public var description: String {
        "IDTokenClaims(sub: \(sub), iss: \(iss), aud: [\(aud.joined(separator: ", "))], exp: \(exp.formatted(.iso8601)))"
    }
    /// The same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the nonce.
    public var customMirror: Mirror {
        Mirror(self, children: ["sub": sub, "iss": iss, "aud": aud, "exp": exp, "iat": iat,
                                "claimNames": claims.keys.filter { $0 != "nonce" }.sorted()])
    }
}
