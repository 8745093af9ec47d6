public import Foundation

/// What an authorization server says about itself (OpenID Connect Discovery 1.0, RFC 8414):
/// its endpoints, all absolute URLs that may be on other origins than the API, and what it
/// supports. ``OAuthProvider/discover(issuer:clientID:clientSecret:transport:)`` reads it
/// from the server; for a server without discovery, write it yourself:
///
/// ```swift
/// let metadata = AuthorizationServerMetadata(
///     issuer: URL(string: "https://auth.example.com")!,
///     authorizationEndpoint: URL(string: "https://auth.example.com/authorize"),
///     tokenEndpoint: URL(string: "https://auth.example.com/token")!,
///     codeChallengeMethodsSupported: ["S256"])
/// let provider = OAuthProvider(metadata: metadata, clientID: "cli")
/// ```
///
/// It is `Codable`, so a front end can keep what it discovered (beside its session, say) and
/// work without the server's discovery document until it is stale: every request made from it
/// is checked as a discovered one is (plain http only on loopback, a port within 1–65535).
public struct AuthorizationServerMetadata: Sendable, Hashable, Codable {
    /// `issuer`: the server's identifier, which its ID tokens carry in `iss`.
    public var issuer: URL
    /// `authorization_endpoint`, for the browser flow.
    public var authorizationEndpoint: URL?
    /// `token_endpoint`.
    public var tokenEndpoint: URL
    /// `device_authorization_endpoint` (RFC 8628), for the device flow.
    public var deviceAuthorizationEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009), for sign-out.
    public var revocationEndpoint: URL?
    /// `userinfo_endpoint` (OpenID Connect), for ``OAuthProvider/userInfo(accessToken:subject:)`` and ``SessionEngine/SessionService/userInfo(from:)``.
    public var userinfoEndpoint: URL?
    /// `end_session_endpoint` (OpenID Connect RP-Initiated Logout).
    public var endSessionEndpoint: URL?
    /// `jwks_uri`: the server's signing keys (not used: ID token signatures are not checked,
    /// see ``IDTokenClaims``).
    public var jwksURI: URL?
    /// `code_challenge_methods_supported` (RFC 7636); the browser flow needs `S256`. Empty when
    /// the document does not say, which RFC 8414 §2 reads as "no PKCE".
    public var codeChallengeMethodsSupported: [String]
    /// `grant_types_supported`; empty when the document does not say.
    public var grantTypesSupported: [String]
    /// `scopes_supported`; empty when the document does not say.
    public var scopesSupported: [String]
    /// `token_endpoint_auth_methods_supported`; empty when the document does not say
    /// (`client_secret_basic` is then used, the default RFC 8414 names).
    public var tokenEndpointAuthMethodsSupported: [String]
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the algorithms the server accepts
    /// DPoP proofs signed with, for example `["ES256", "EdDSA"]`; `nil` when the document does
    /// not say, which is read as "this server does not offer DPoP" (a sign-in asked to prove
    /// possession of a key then fails before sending anything). Set it yourself for a server
    /// without discovery that takes DPoP proofs.
    public var dpopSigningAlgValuesSupported: [String]?

    /// Creates metadata, for a server without a discovery document; every list is empty
    /// unless given.
    public init(issuer: URL, authorizationEndpoint: URL? = nil, tokenEndpoint: URL,
                deviceAuthorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
                userinfoEndpoint: URL? = nil, endSessionEndpoint: URL? = nil, jwksURI: URL? = nil,
                codeChallengeMethodsSupported: [String] = [], grantTypesSupported: [String] = [],
                scopesSupported: [String] = [], tokenEndpointAuthMethodsSupported: [String] = []) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.jwksURI = jwksURI
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.grantTypesSupported = grantTypesSupported
        self.scopesSupported = scopesSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
    }

    /// Whether the server takes PKCE's `S256` challenges (RFC 7636 §4.2).
    package var supportsS256: Bool { codeChallengeMethodsSupported.contains("S256") }
}
