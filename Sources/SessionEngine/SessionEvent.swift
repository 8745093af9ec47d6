public import NetworkService

/// Something that happened to the session, as ``SessionService/events()`` reports it.
///
/// ```swift
/// for await event in service.events() {
///     switch event {
///     case .signedIn(let accountID): showHome(accountID)
///     case .refreshed: break
///     case .signedOut(let reason): showSignIn(reason)
///     case .stepUpRequired(_, let requirement): askToSignInAgain(requirement)
///     }
/// }
/// ```
public enum SessionEvent: Sendable, Equatable {
    /// A session started through this service (sign-in, sign-up, ``SessionService/startSession(tokens:accountID:)``),
    /// for the account with this id.
    case signedIn(accountID: String)
    /// The tokens were refreshed and saved; the account with this id stays signed in.
    case refreshed(accountID: String)
    /// The session ended, and why.
    case signedOut(SignOutReason)
    /// A call of the account with this id was refused by a resource asking for a stronger or
    /// more recent sign-in (RFC 9470): the sign-in to ask for, `nil` when the server's
    /// challenge could not be read. The session is kept; the call threw
    /// ``SessionError/Kind/stepUpRequired``. Sent once per refused call.
    case stepUpRequired(accountID: String, requirement: AuthenticationRequirement?)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable, CustomStringConvertible {
    /// The user signed out.
    case userSignedOut
    /// The user deleted their account.
    case accountDeleted
    /// The server refused the refresh token (for example `invalid_refresh_token`, or
    /// `refresh_token_reused` after another device used a stolen or stale copy).
    case refreshTokenRejected(ServerErrorCode?)
    /// The server refused the refresh request with a status that repeating it cannot change
    /// (a 4xx other than 408 and 429) which the ``RefreshFailureRule`` does not name: for
    /// example a server that rejects refresh tokens with 403, a 400 other than `invalid_grant`,
    /// or a refresh call the server cannot read (a wrong path or field name). The status and
    /// the server's code, if it sent one.
    case refreshRefused(status: Int, code: ServerErrorCode?)
    /// Another process sharing the token store signed out (the store was found empty).
    case endedElsewhere
    /// Another process sharing the token store signed in as a different account.
    case replacedByAnotherAccount
    /// The server answered the refresh of a DPoP-bound session (RFC 9449) with a bearer token,
    /// while ``DPoPConfiguration/bearerAnswer`` is ``DPoPConfiguration/BearerAnswer/refuse``:
    /// the tokens were not kept.
    case dpopNotHonoured

    /// For example `the server rejected the refresh token (refresh_token_reused)`.
    public var description: String {
        switch self {
        case .userSignedOut: "signed out"
        case .accountDeleted: "the account was deleted"
        case let .refreshTokenRejected(code):
            "the server rejected the refresh token" + (code.map { " (\($0))" } ?? "")
        case let .refreshRefused(status, code):
            "the server refused the refresh request (HTTP \(status)" + (code.map { " \($0)" } ?? "") + ")"
        case .endedElsewhere: "signed out by another program sharing the token store"
        case .replacedByAnotherAccount: "another account signed in through another program sharing the token store"
        case .dpopNotHonoured: "the server answered a DPoP-bound session's refresh with a bearer token"
        }
    }
}
