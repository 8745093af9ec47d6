public import SessionEngine

extension SessionService.Configuration {
    /// A session with a discovered OAuth 2.0 / OpenID Connect server: refresh with
    /// `grant_type=refresh_token` at the provider's token endpoint, revoke at sign-out at its
    /// revocation endpoint (RFC 7009) when it has one. Both endpoints are absolute URLs, which
    /// may be on another origin than the API's `Server`; they are sent with the provider's
    /// transport. A session without a refresh token (the server issued none) ends when its
    /// access token is refused or due (``/SessionEngine/SignOutReason/refreshTokenRejected(_:)``).
    public static func oauth2(_ provider: OAuthProvider) -> Self {
        fatalError("not implemented yet")
    }

    /// A session of a client acting as itself (RFC 6749 §4.4): when the access token is due or
    /// refused, the engine obtains a new one with the client's credentials, through its
    /// single-flight, exclusive-section refresh (so programs sharing a store make one token
    /// request per lifetime). The stored refresh token is empty and ignored. Sign-out revokes
    /// the access token when the server has a revocation endpoint.
    public static func clientCredentials(_ provider: OAuthProvider, scopes: [String]) -> Self {
        fatalError("not implemented yet")
    }
}
