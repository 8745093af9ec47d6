public import NetworkService
public import TokenStore

/// How ``SessionService/signOut()`` ends the session on the server. The local sign-out
/// (clearing the store) always happens first, whatever the server says.
///
/// Presets: ``OAuth2TokenClient/revoker`` (RFC 7009 token revocation), ``SessionRevoker/localOnly``
/// (a server with nothing to tell; the default).
///
/// ```swift
/// let revoker = SessionRevoker { credentials, server in
///     try await server.send(MyEndpoint.logout(refreshToken: credentials.refreshToken))
/// }
/// ```
public struct SessionRevoker: Sendable {
    /// Tells the server that the session in `credentials` is over.
    public let revoke: @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Void
    /// Whether the call authenticates with the access token, so that an authentication
    /// failure is worth one refresh and a second try.
    public let usesAccessToken: Bool

    /// Creates a revoker from a function.
    /// - Parameters:
    ///   - usesAccessToken: Whether the call sends the access token (then an expired one is
    ///     refreshed once and the call repeated). Default `false`.
    ///   - revoke: Ends the session on the server.
    public init(usesAccessToken: Bool = false,
                _ revoke: @escaping @Sendable (_ credentials: Credentials, _ server: Server) async throws -> Void) {
        self.revoke = revoke
        self.usesAccessToken = usesAccessToken
    }

    /// Nothing to tell the server: sign-out is local only.
    public static let localOnly = SessionRevoker { _, _ in }
}
