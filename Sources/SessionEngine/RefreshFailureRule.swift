public import NetworkService

/// Which refresh failures end the session (clear the store, send `signedOut`) rather than
/// being reported as transient.
///
/// A rule names the answers that mean "this refresh token is dead" (with
/// ``SignOutReason/refreshTokenRejected(_:)``). Whatever the rule says, the engine also ends the
/// session on any other 4xx from the refresh call except 408 and 429 (``refusedRequest``, with
/// ``SignOutReason/refreshRefused(status:code:)``): the refresh request is the same bytes every
/// time (the stored refresh token, the same fields), so a server that refused it will refuse
/// it again, and presenting it on every call would go on for ever. Every other failure (no
/// connection, a timeout, 408, 429, 5xx, a garbled answer) keeps the credentials and is
/// transient (``SessionError/Kind/refreshFailed``).
///
/// ```swift
/// // OAuth 2.0: invalid_grant, whether the server answers 400 (RFC 6749) or 401.
/// let rule = RefreshFailureRule.rejecting(statuses: [400, 401], codes: [.invalidGrant])
/// ```
public struct RefreshFailureRule: Sendable {
    /// The reason the session ends for `error`, or `nil` to keep the credentials.
    public let sessionEndingReason: @Sendable (_ error: any Error) -> SignOutReason?

    /// Creates a rule from a function.
    public init(_ sessionEndingReason: @escaping @Sendable (_ error: any Error) -> SignOutReason?) {
        self.sessionEndingReason = sessionEndingReason
    }

    /// A rule that ends the session when the refresh call is answered with one of
    /// `statuses` and one of `codes` (any code, or none, when `codes` is `nil`).
    public static func rejecting(statuses: Set<Int>, codes: Set<ServerErrorCode>?) -> RefreshFailureRule {
        RefreshFailureRule { error in
            guard let error = error as? NetworkError, error.kind == .httpStatus,
                  let status = error.statusCode, statuses.contains(status) else { return nil }
            if let codes {
                guard let code = error.serverErrorCode, codes.contains(code) else { return nil }
            }
            return .refreshTokenRejected(error.serverErrorCode)
        }
    }

    /// A rule that ends the session when the server answers `status` with one of `codes`
    /// (any code when `codes` is `nil`).
    public static func rejecting(status: Int, codes: Set<ServerErrorCode>?) -> RefreshFailureRule {
        rejecting(statuses: [status], codes: codes)
    }

    /// The default for a refresher of your own: the refresh call answered HTTP 401 (whatever
    /// the code: many JSON servers answer a bad refresh token so), or 400 `invalid_grant`
    /// (RFC 6749). Any other 400 is a request the server could not read (a wrong field name,
    /// say), which says nothing about the refresh token, so the credentials are kept; so are
    /// they after a timeout, a dropped connection, 5xx or garbage.
    public static let rejectedByServer = RefreshFailureRule { error in
        rejecting(status: 401, codes: nil).sessionEndingReason(error)
            ?? rejecting(status: 400, codes: [.invalidGrant]).sessionEndingReason(error)
    }

    /// Any 4xx except 408 (request timeout) and 429 (too many requests): a refresh request the
    /// server refused and would refuse again, whatever the reason (a server that rejects
    /// refresh tokens with 403, a 400 other than `invalid_grant`, a wrong path or field name).
    /// The engine applies it after the configured rule, so the session ends at the first such
    /// answer with ``SignOutReason/refreshRefused(status:code:)``.
    ///
    /// At the first, not after a few: the answer is what the server says to this exact request,
    /// and a count of answers could not be kept across the processes that share a store (a
    /// command-line front end makes one call per process, so a count above one would never be
    /// reached there and each run would present the dead token again).
    public static let refusedRequest = RefreshFailureRule { error in
        guard let error = error as? NetworkError, error.kind == .httpStatus, let status = error.statusCode,
              (400...499).contains(status), status != 408, status != 429 else { return nil }
        return .refreshRefused(status: status, code: error.serverErrorCode)
    }

    /// RFC 6749 §5.2: `invalid_grant` (the refresh token is invalid, expired, revoked or was
    /// issued to another client), answered 400 as the RFC says or 401 as some servers do.
    public static let oauth2 = rejecting(statuses: [400, 401], codes: [.invalidGrant])
}
