/// Why ``RepositoryService`` could not supply a working access token.
///
/// Errors from the API call itself (a 404, a 403, a dropped connection) reach the caller as
/// the handler threw them, usually a `NetworkError`; a `SessionError` is about the session.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. An open set: switch with a `default`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind.
        public let rawValue: String
        /// Creates a kind; prefer the static values.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No credentials are stored: sign in first.
        public static let notSignedIn = Kind(rawValue: "notSignedIn")
        /// The session ended while the call waited (the server refused the refresh token,
        /// or the member signed out); see ``SessionError/reason``. Sign in again.
        public static let sessionEnded = Kind(rawValue: "sessionEnded")
        /// Another member signed in while the call waited; the call was not retried with
        /// their token.
        public static let sessionChanged = Kind(rawValue: "sessionChanged")
        /// Refreshing failed for a reason that may pass (no connection, timeout, 5xx, a
        /// garbled answer). The credentials are kept: try again later.
        public static let refreshFailed = Kind(rawValue: "refreshFailed")
        /// The server refused, before they were due to expire, more freshly refreshed access
        /// tokens than the ``RefreshWindow`` allows: a loop, so the SDK stops refreshing for
        /// a while instead. Refreshes of tokens that were due never count.
        public static let refreshLimitExceeded = Kind(rawValue: "refreshLimitExceeded")
        /// A session could not be started: no account id was given and the access token is
        /// not a JWT with a `sub` claim.
        public static let accountUnknown = Kind(rawValue: "accountUnknown")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let kind: Kind
    /// Why the session ended, for `.sessionEnded`.
    public let reason: SignOutReason?
    /// The error underneath, for example the `NetworkError` of a failed refresh.
    public let underlying: (any Error)?
    /// What exactly happened, when there is more to say than the kind (for
    /// ``Kind/refreshLimitExceeded``: how many refreshes, in how long).
    public let detail: String?

    /// Creates a session error.
    public init(_ kind: Kind, reason: SignOutReason? = nil, underlying: (any Error)? = nil, detail: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.underlying = underlying
        self.detail = detail
    }

    /// Whether trying again later may succeed (a failed refresh whose credentials were kept).
    public var isTransient: Bool { kind == .refreshFailed }

    /// What happened, with the underlying error's (redacted) description.
    public var description: String {
        switch kind {
        case .notSignedIn: return "not signed in"
        case .sessionEnded: return "the session ended: \(reason?.description ?? "signed out")"
        case .sessionChanged: return "another member signed in while the call was waiting"
        case .refreshFailed:
            return "refreshing the session failed; the credentials were kept, try again later"
                + (underlying.map { ": \($0)" } ?? "")
        case .refreshLimitExceeded:
            return "stopped refreshing to avoid a loop: " + (detail ?? "the server refused access tokens before they were due to expire")
        case .accountUnknown:
            return "no account id was given and the access token is not a JWT with a `sub` claim"
        default: return kind.rawValue
        }
    }
}
