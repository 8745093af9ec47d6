import TokenStore

// A session the server ended whose credentials the store could not remove (a database that is
// down): without a memory of it, every later call would load the dead credentials again,
// present the rejected refresh token to the server again, send `signedOut` again and fail
// with the store's error again. The service remembers them (by fingerprint, in memory) and
// instead tries the removal again on each call, with ``SessionError/Kind/sessionEndedCredentialsNotRemoved``
// until it succeeds.

/// Stored credentials of a session that ended here, which the store could not remove yet:
/// whose they are, a fingerprint of their refresh token (of the access token for a session
/// without one; never the token itself), and why the
/// session ended.
struct EndedCredentials: Sendable, Equatable {
    let accountID: String
    let refreshTokenFingerprint: Int
    let reason: SignOutReason

    /// Salts the fingerprint, on top of `Hasher`'s own per-process seed, so that it means
    /// nothing outside this process even when deterministic hashing is switched on.
    private static let salt = UInt64.random(in: .min ... .max)

    init(_ credentials: Credentials, reason: SignOutReason) {
        accountID = credentials.accountID
        refreshTokenFingerprint = Self.fingerprint(credentials.identifyingToken)
        self.reason = reason
    }

    /// Whether `credentials` are these (the same account and refresh token).
    func matches(_ credentials: Credentials) -> Bool {
        credentials.accountID == accountID && Self.fingerprint(credentials.identifyingToken) == refreshTokenFingerprint
    }

    private static func fingerprint(_ token: String) -> Int {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(token)
        return hasher.finalize()
    }
}
