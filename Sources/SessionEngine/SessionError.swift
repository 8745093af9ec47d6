public import Foundation
import NetworkService

/// Why ``SessionService`` could not supply a working access token.
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
        /// or the user signed out); see ``SessionError/reason``. Sign in again.
        public static let sessionEnded = Kind(rawValue: "sessionEnded")
        /// The session is over (the server rejected the refresh token; see
        /// ``SessionError/reason``), but its credentials could not be removed from the token
        /// store yet: ``SessionError/underlying`` is the ``/TokenStore/TokenStoreError`` that
        /// stopped the removal (for example ``/TokenStore/TokenStoreError/Kind/unavailable``,
        /// a database that is down). Treat it like ``sessionEnded``: sign in again.
        ///
        /// The service remembers, in memory, that those stored credentials are dead: no later
        /// call presents them to the server and no second `signedOut` event is sent. Each
        /// call (and ``SessionService/signOut()``) tries the removal again and throws this
        /// error until it succeeds; from then on calls throw ``notSignedIn``. Credentials the
        /// store holds later that are not those (another program signed in) are used as usual.
        /// Not ``SessionError/isTransient``: trying again cannot bring the session back.
        public static let sessionEndedCredentialsNotRemoved = Kind(rawValue: "sessionEndedCredentialsNotRemoved")
        /// Another account signed in while the call waited; the call was not retried with
        /// their token.
        public static let sessionChanged = Kind(rawValue: "sessionChanged")
        /// Refreshing failed for a reason that may pass (no connection, timeout, 5xx, a
        /// garbled answer). The credentials are kept: try again later.
        public static let refreshFailed = Kind(rawValue: "refreshFailed")
        /// The server refused, before they were due to expire, more freshly refreshed access
        /// tokens than the ``RefreshLimit`` allows: a loop, so the SDK stops refreshing for
        /// a while instead. Refreshes of tokens that were due never count.
        public static let refreshLimitExceeded = Kind(rawValue: "refreshLimitExceeded")
        /// A session could not be started: no account id was given and the access token does
        /// not name one (it is not a JWT, or a JWT without a `sub` claim), or the id given was
        /// empty. ``SessionError/detail`` says which (for a JWT, with the names of its claims);
        /// pass `accountID:` to ``SessionService/startSession(tokens:accountID:)``.
        public static let accountUnknown = Kind(rawValue: "accountUnknown")
        /// The call waited longer than ``CallLimit/maximumWait`` for its turn among the calls
        /// ``SessionService/Configuration/callLimit`` lets run at once; ``SessionError/detail``
        /// names the limit. Nothing was sent; try again, or raise the limit.
        public static let callLimitWaitExceeded = Kind(rawValue: "callLimitWaitExceeded")
        /// The session's DPoP key cannot sign here: it is of an algorithm or kind that no
        /// ``DPoPKeyKind`` configured here can use (a key another program made), or a new key
        /// could not be made. ``SessionError/detail`` names the algorithm and what to configure
        /// (``DPoPConfiguration/alsoReads``). Nothing was sent; the session is kept for the
        /// programs that can sign with it.
        public static let dpopKeyUnusable = Kind(rawValue: "dpopKeyUnusable")
        /// The server answered a sign-in's DPoP proof with a bearer token while
        /// ``DPoPConfiguration/bearerAnswer`` is ``DPoPConfiguration/BearerAnswer/refuse``:
        /// nothing was stored.
        public static let dpopNotHonoured = Kind(rawValue: "dpopNotHonoured")
        /// The server asks for a stronger or more recent sign-in for this call (RFC 9470: a
        /// 401 `insufficient_user_authentication`): ``SessionError/authenticationRequirement``
        /// says what it asks for (`nil` when its challenge could not be read:
        /// ``SessionError/underlying`` is then the ``/NetworkService/StepUpChallengeError``;
        /// otherwise the `NetworkError`). Nothing was refreshed (a refreshed token carries the
        /// same sign-in) and the session is kept: sign in again at that level
        /// (``SessionService/signInAgain(_:)``), then call again. <doc:StepUpAuthentication>
        public static let stepUpRequired = Kind(rawValue: "stepUpRequired")
        /// A sign-in inside ``SessionService/signInAgain(_:)`` was of another account than the
        /// one signed in (or the store came to hold another's meanwhile): nothing was stored,
        /// the session signed in is kept.
        public static let accountMismatch = Kind(rawValue: "accountMismatch")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let kind: Kind
    /// Why the session ended, for ``Kind/sessionEnded`` and ``Kind/sessionEndedCredentialsNotRemoved``.
    public let reason: SignOutReason?
    /// The error underneath, for example the `NetworkError` of a failed refresh, or for
    /// ``Kind/sessionEndedCredentialsNotRemoved`` the ``/TokenStore/TokenStoreError`` that
    /// kept the ended session's credentials in the store.
    public let underlying: (any Error)?
    /// What exactly happened, when there is more to say than the kind (for
    /// ``Kind/refreshLimitExceeded``: how many refreshes, in how long; for
    /// ``Kind/accountUnknown``: what was missing and what to pass).
    public let detail: String?
    /// For ``Kind/stepUpRequired``: the sign-in the server asks for, to hand to a sign-in flow;
    /// `nil` for other kinds, and when the server's challenge could not be read.
    public let authenticationRequirement: AuthenticationRequirement?

    /// Creates a session error.
    public init(_ kind: Kind, reason: SignOutReason? = nil, underlying: (any Error)? = nil, detail: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.underlying = underlying
        self.detail = detail
        self.authenticationRequirement = nil
    }

    /// A ``Kind/stepUpRequired`` error asking for `requirement`.
    init(stepUp requirement: AuthenticationRequirement?, underlying: any Error) {
        self.kind = .stepUpRequired
        self.reason = nil
        self.underlying = underlying
        self.detail = nil
        self.authenticationRequirement = requirement
    }

    /// Whether trying again later may succeed (a failed refresh whose credentials were kept).
    public var isTransient: Bool { kind == .refreshFailed || kind == .callLimitWaitExceeded }

    /// What happened, with the underlying error's (redacted) description.
    public var description: String {
        switch kind {
        case .notSignedIn: return "not signed in"
        case .sessionEnded: return "the session ended: \(reason?.description ?? "signed out")"
        case .sessionEndedCredentialsNotRemoved:
            return "the session ended (\(reason?.description ?? "signed out")), but its credentials could not be "
                + "removed from the token store yet; this service will not use them again" + (underlying.map { ": \($0)" } ?? "")
        case .sessionChanged: return "another account signed in while the call was waiting"
        case .refreshFailed:
            return "refreshing the session failed; the credentials were kept, try again later"
                + (underlying.map { ": \($0)" } ?? detail.map { ": " + $0 } ?? "")
        case .refreshLimitExceeded:
            return "stopped refreshing to avoid a loop: " + (detail ?? "the server refused access tokens before they were due to expire")
        case .accountUnknown:
            return "could not start a session: " + (detail ?? "no account id was given and the access token names none; pass `accountID:`")
        case .callLimitWaitExceeded:
            return "the call was not sent: " + (detail ?? "it waited too long for its turn (Configuration.callLimit)")
        case .dpopKeyUnusable:
            return "the session's DPoP key cannot be used here" + (detail.map { ": " + $0 } ?? "")
        case .dpopNotHonoured:
            return "the server did not bind the tokens to the DPoP key" + (detail.map { ": " + $0 } ?? "")
        case .stepUpRequired:
            guard let authenticationRequirement else {
                return "the server asks for a stronger or more recent sign-in, but "
                    + ((underlying as? StepUpChallengeError)?.description ?? "its challenge cannot be read")
            }
            return "the server asks for a stronger or more recent sign-in (\(authenticationRequirement)); "
                + "the session is kept: sign in again at that level, then try again"
        case .accountMismatch:
            return "the new sign-in was refused: " + (detail ?? "it is of another account than the one signed in")
        default: return kind.rawValue
        }
    }
}

extension SessionError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
