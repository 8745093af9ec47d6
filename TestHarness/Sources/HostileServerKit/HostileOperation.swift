/// The SDK operation a hostile mode attacks. Each starts from discovery of the
/// ``HostileProvider``'s issuer, over the transport under test.
public enum HostileOperation: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `OAuthProvider.discover`, then a client-credentials sign-in with what it found (so a
    /// document that names the wrong endpoints shows where the client secret would go).
    case discovery
    /// `SessionService.signIn(with: .clientCredentials(…))`, then one API call with the token.
    case clientCredentialsSignIn
    /// `SessionService.signIn(with: .device(…))` with `openid` (the front end is handed the
    /// user code and verification URI), on a clock that waits without sleeping.
    case deviceSignIn
    /// A stored session whose access token is due, refreshed through `SessionService.request`
    /// at the provider's token endpoint (`.oauth2` configuration).
    case refresh
    /// `OAuthProvider.userInfo(accessToken:)` with a stored access token.
    case userinfo
    /// `SessionService.signOut()` of a stored session: both tokens revoked at the revocation endpoint.
    case revocation
    /// `SessionService.request` with a stored session whose token is not due: `GET {issuer}/api/me`
    /// with the access token, through `Server.send` (a 401 refreshes and retries once).
    case apiCall

    /// For example `client-credentials sign-in`.
    public var description: String {
        switch self {
        case .discovery: "discovery"
        case .clientCredentialsSignIn: "client-credentials sign-in"
        case .deviceSignIn: "device sign-in"
        case .refresh: "refresh"
        case .userinfo: "userinfo"
        case .revocation: "revocation"
        case .apiCall: "API call"
        }
    }

    /// Whether the operation starts a session (so a refused answer must leave none).
    var signsIn: Bool { self == .discovery || self == .clientCredentialsSignIn || self == .deviceSignIn }
}
