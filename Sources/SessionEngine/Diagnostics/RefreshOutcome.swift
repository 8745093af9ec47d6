/// What the server's answer to a refresh meant: ``SessionRecord/Event/serverAnswered(attempt:duration:outcome:)``.
public enum RefreshOutcome: Sendable, Equatable, CustomStringConvertible {
    /// New tokens arrived.
    case rotated
    /// The server rejected the refresh token: the session ends for this reason.
    case rejected(SignOutReason)
    /// A failure that keeps the session (``SessionError/Kind/refreshFailed``), classified for retrying.
    case failed(RefreshFailure)

    /// `rotated`, `rejected (…)` or `failed (…)`.
    public var description: String {
        switch self {
        case .rotated: "rotated"
        case let .rejected(reason): "rejected (\(reason))"
        case let .failed(failure): "failed (\(failure))"
        }
    }
}
