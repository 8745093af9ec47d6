public import Foundation
internal import NetworkService
internal import TokenStore
internal import SessionEngine

/// One authorization request of the authorization code flow with PKCE: the URL to open, and
/// inside it, never printed, the `state`, `nonce` and code verifier its callback is checked
/// and exchanged with. For a redirect the app receives itself (a custom scheme, a universal
/// link, `ASWebAuthenticationSession`); the loopback flow (``SignInFlow/browser(_:scopes:redirectPort:timeout:open:)``)
/// makes one itself.
///
/// ```swift
/// let request = try provider.authorizationRequest(redirectURI: URL(string: "com.example.app:/callback")!,
///                                                 scopes: ["openid", "profile"])
/// let callbackURL = try await presentBrowser(request.url)      // the app's own code
/// let result = try await session.signIn(with: .callback(callbackURL, for: request, provider))
/// ```
///
/// Use each request once: its `state` and verifier are single-use.
public struct AuthorizationRequest: Sendable {
    /// The authorization URL to open in a browser: the server's authorization endpoint with
    /// `response_type=code`, `client_id`, `redirect_uri`, `scope`, `state`, `code_challenge`
    /// (`S256`) and, when the scopes include `openid`, `nonce`.
    public let url: URL
    /// The redirect URI the server sends the browser back to.
    public let redirectURI: URL
    /// The scopes asked for.
    public let scopes: [String]
    /// `state`: checked against the callback's (CSRF, RFC 6749 §10.12).
    let state: String
    /// `nonce`: checked against the ID token's, when `openid` was asked for.
    let nonce: String?
    /// The PKCE code verifier (RFC 7636 §4.1), sent with the code.
    let codeVerifier: String
    /// The DPoP key the URL's `dpop_jkt` names (RFC 9449 §10), kept in memory until the
    /// callback so the code exchange proves the same key; `nil` for a bearer sign-in.
    let proofing: DPoPProofing?
    /// The key `proofing` signs with, which the session stores with the tokens; `nil` for a
    /// bearer sign-in, or a request made by a test with proofs only.
    let dpopKey: DPoPKey?
    /// The sign-in level the URL asks for (a step-up), which the callback's ID token must show met.
    let requirement: AuthenticationRequirement?
    /// When the request was made, by the provider's clock: under `prompt=login`, the ID token's
    /// `auth_time` must not be earlier.
    let createdAt: Date

    init(url: URL, redirectURI: URL, scopes: [String], state: String, nonce: String?, codeVerifier: String,
         proofing: DPoPProofing? = nil, dpopKey: DPoPKey? = nil, requirement: AuthenticationRequirement? = nil,
         createdAt: Date = Date()) {
        self.url = url
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.proofing = proofing
        self.dpopKey = dpopKey
        self.requirement = requirement
        self.createdAt = createdAt
    }
}

extension AuthorizationRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `AuthorizationRequest(https://auth.example.com/authorize, redirect: http://127.0.0.1:53682/callback)`:
    /// the endpoint without its query, so no `state` or `nonce`.
    public var description: String {
        var endpoint = URLComponents(url: url, resolvingAgainstBaseURL: false)
        endpoint?.query = nil
        return "AuthorizationRequest(\(endpoint?.string ?? "<authorization endpoint>"), redirect: \(redirectURI.absoluteString))"
    }
    /// The same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the secrets.
    public var customMirror: Mirror {
        Mirror(self, children: ["request": description, "scopes": scopes])
    }
}
