/// Which failed responses mean "the access token is no good" (refresh and retry).
///
/// The default is RFC 6750: HTTP 401, with or without a `WWW-Authenticate` header.
/// HTTP 403 ("you may not do this") never counts, whatever the policy says: refreshing a
/// token cannot grant a permission.
///
/// ```swift
/// // A server that answers 401 for other reasons too, and marks expired tokens by code:
/// let policy = AuthenticationFailurePolicy(statusCodes: [401, 419],
///                                          serverErrorCodes: [.tokenExpired, .invalidToken])
/// ```
public struct AuthenticationFailurePolicy: Sendable, Hashable {
    /// Statuses that count (403 is always ignored).
    public var statusCodes: Set<Int>
    /// When set, only errors with one of these server codes count.
    public var serverErrorCodes: Set<ServerErrorCode>?
    /// When true, only responses with a `WWW-Authenticate: Bearer …` challenge count.
    public var requiresBearerChallenge: Bool

    /// Creates a policy.
    public init(statusCodes: Set<Int> = [401], serverErrorCodes: Set<ServerErrorCode>? = nil,
                requiresBearerChallenge: Bool = false) {
        self.statusCodes = statusCodes
        self.serverErrorCodes = serverErrorCodes
        self.requiresBearerChallenge = requiresBearerChallenge
    }

    /// HTTP 401, with or without a challenge.
    public static let `default` = AuthenticationFailurePolicy()

    /// Only HTTP 401 that carries a `WWW-Authenticate: Bearer` challenge, as RFC 6750 requires.
    public static let strictBearerChallenge = AuthenticationFailurePolicy(requiresBearerChallenge: true)

    /// Whether `error` counts as an authentication failure.
    public func matches(_ error: NetworkError) -> Bool {
        guard error.kind == .httpStatus, let status = error.statusCode, status != 403,
              statusCodes.contains(status) else { return false }
        if let serverErrorCodes {
            guard let code = error.serverErrorCode, serverErrorCodes.contains(code) else { return false }
        }
        if requiresBearerChallenge {
            guard let challenge = error.authenticateChallenge,
                  BearerChallenge.hasBearerChallenge(challenge) else { return false }
        }
        return true
    }
}
