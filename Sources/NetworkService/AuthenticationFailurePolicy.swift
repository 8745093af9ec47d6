/// Which failed responses mean "the access token is no good" (refresh and retry).
///
/// The default is RFC 6750: HTTP 401, with or without a `WWW-Authenticate` header, and a
/// 403 whose `WWW-Authenticate: Bearer` challenge says `error="invalid_token"` (RFC 6750
/// §3.1: the token, not the permission, is the problem).
///
/// A refused DPoP proof (RFC 9449: `use_dpop_nonce`, `invalid_dpop_proof`) never counts: it
/// is about the proof, not the token. Nor does a step-up challenge (RFC 9470:
/// `insufficient_user_authentication`, ``NetworkError/isStepUpChallenge``): it is about the
/// sign-in behind the token, which a refresh keeps.
///
/// A bare 403 ("you may not do this") does not count unless the policy opts in with
/// ``forbiddenMeansExpiredToken``: refreshing a token cannot grant a permission. Opt in for a
/// server that answers 403 when an access token has expired or was revoked, such as
/// django-oauth-toolkit's `ProtectedResourceView` (a bare 403, no challenge) or the app
/// server of the documents this SDK grew from (the "seed" server, which answered 403 when its
/// access token expired). A call then refreshes at most once on a 403
/// and the refresh limit stops a loop, so a real permission refusal costs one refresh and
/// still reaches the caller as the server's 403.
///
/// ```swift
/// // A server that answers 401 for other reasons too, and marks expired tokens by code:
/// let policy = AuthenticationFailurePolicy(statusCodes: [401, 419],
///                                          serverErrorCodes: [.tokenExpired, .invalidToken])
/// // A server that answers 403 for an expired token:
/// var configuration = RepositoryService.Configuration.oauth2(oauth)
/// configuration.authenticationFailurePolicy = AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true)
/// ```
public struct AuthenticationFailurePolicy: Sendable, Hashable {
    /// Statuses that count. A 403 listed here is ignored: a bare 403 counts only with
    /// ``forbiddenMeansExpiredToken``.
    public var statusCodes: Set<Int>
    /// When set, only errors with one of these server codes count.
    public var serverErrorCodes: Set<ServerErrorCode>?
    /// When true, only responses with a `WWW-Authenticate: Bearer …` challenge count.
    public var requiresBearerChallenge: Bool
    /// When true, a 403 counts like a 401 (filtered by ``serverErrorCodes`` and
    /// ``requiresBearerChallenge`` the same way): for a server that answers 403 when an access
    /// token has expired or was revoked. Default `false`. Either way, a 403 whose Bearer
    /// challenge says `error="invalid_token"` counts, and one that says
    /// `error="insufficient_scope"` (a permission) never does.
    public var forbiddenMeansExpiredToken: Bool

    /// Creates a policy.
    public init(statusCodes: Set<Int> = [401], serverErrorCodes: Set<ServerErrorCode>? = nil,
                requiresBearerChallenge: Bool = false, forbiddenMeansExpiredToken: Bool = false) {
        self.statusCodes = statusCodes
        self.serverErrorCodes = serverErrorCodes
        self.requiresBearerChallenge = requiresBearerChallenge
        self.forbiddenMeansExpiredToken = forbiddenMeansExpiredToken
    }

    /// HTTP 401, with or without a challenge; a 403 only with an `invalid_token` challenge.
    public static let `default` = AuthenticationFailurePolicy()

    /// Only HTTP 401 that carries a `WWW-Authenticate: Bearer` challenge, as RFC 6750 requires
    /// (and a 403 with an `invalid_token` challenge).
    public static let strictBearerChallenge = AuthenticationFailurePolicy(requiresBearerChallenge: true)

    /// Whether `error` counts as an authentication failure. A refused DPoP proof
    /// (`use_dpop_nonce` or `invalid_dpop_proof`, as the error code or in a `DPoP` challenge)
    /// never does: a new token would not make the proof acceptable; nor does a step-up
    /// challenge (``NetworkError/isStepUpChallenge``): a refreshed token carries the same sign-in.
    public func matches(_ error: NetworkError) -> Bool {
        guard error.kind == .httpStatus, let status = error.statusCode, !error.isDPoPProofFailure,
              !error.isStepUpChallenge else { return false }
        if status == 403 {
            switch Self.challengeError(error) {
            case ServerErrorCode.invalidToken.rawValue: return true
            case ServerErrorCode.insufficientScope.rawValue: return false  // a permission, by RFC 6750 §3.1
            default: guard forbiddenMeansExpiredToken else { return false }
            }
        } else {
            guard statusCodes.contains(status) else { return false }
        }
        if let serverErrorCodes {
            guard let code = error.serverErrorCode, serverErrorCodes.contains(code) else { return false }
        }
        if requiresBearerChallenge {
            guard let challenge = error.authenticateChallenge,
                  BearerChallenge.hasBearerChallenge(challenge) else { return false }
        }
        return true
    }

    /// The `error` of the response's Bearer challenge (RFC 6750 §3.1), if it has one.
    private static func challengeError(_ error: NetworkError) -> String? {
        error.authenticateChallenge.flatMap { BearerChallenge.parameters(of: $0)?["error"] }
    }
}
