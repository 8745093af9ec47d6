/// What a sign-in ended with; the session itself is in the ``/SessionEngine/SessionService`` it ran on.
///
/// ```swift
/// let result = try await session.signIn(with: .browser(provider, scopes: ["openid"]) { try await open($0) })
/// print("Signed in as \(result.accountID)")
/// ```
public struct SignInResult: Sendable, Hashable {
    /// The account the session is stored under: the ID token's `sub`; for client credentials,
    /// the client id; else the access token's JWT `sub`.
    public let accountID: String
    /// The ID token's checked claims, when the server sent one (`openid` in the scopes).
    public let idToken: IDTokenClaims?
    /// The scope the server granted, when it said (RFC 6749 §5.1), else `nil`.
    public let scope: String?

    /// Creates a result.
    package init(accountID: String, idToken: IDTokenClaims?, scope: String?) {
        self.accountID = accountID
        self.idToken = idToken
        self.scope = scope
    }
}
