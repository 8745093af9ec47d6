/// Why a refresh started: ``SessionRecord/Event/refreshStarted(_:)``.
public enum RefreshCause: Sendable, Equatable, CustomStringConvertible {
    /// The access token expires within the margin (or already has): refreshed before the call.
    case due
    /// The server refused the access token (an authentication failure with this HTTP status).
    case authenticationFailure(statusCode: Int?)

    /// `access token due`, or `authentication failure (HTTP 401)`.
    public var description: String {
        switch self {
        case .due: "access token due"
        case let .authenticationFailure(status): "authentication failure (HTTP \(status.map(String.init) ?? "?"))"
        }
    }
}
