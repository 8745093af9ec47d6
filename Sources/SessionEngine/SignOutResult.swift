public import TokenStore

/// What ``SessionService/signOut()`` did.
public struct SignOutResult: Sendable {
    /// Whether credentials were stored before the sign-out.
    public let wasSignedIn: Bool
    /// Why the server could not be told, if it could not (the local sign-out happened anyway).
    public let serverError: (any Error)?
    /// Why the stored credentials could not be removed, if they could not (a read-only
    /// folder, a database that is down, say); the server was told all the same. With
    /// ``wasSignedIn`` `false`, they were the credentials of a session that had already ended
    /// (``SessionError/Kind/sessionEndedCredentialsNotRemoved``): they are not used again.
    public let localError: TokenStoreError?

    /// Creates a result.
    package init(wasSignedIn: Bool, serverError: (any Error)?, localError: TokenStoreError? = nil) {
        self.wasSignedIn = wasSignedIn
        self.serverError = serverError
        self.localError = localError
    }

    /// Whether the server ended the session too.
    public var serverConfirmed: Bool { wasSignedIn && serverError == nil }
    /// Whether the stored credentials were removed (or there were none).
    public var removedLocally: Bool { localError == nil }
}
