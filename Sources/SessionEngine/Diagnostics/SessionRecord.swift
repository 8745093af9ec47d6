public import Foundation

/// One decision the engine made while keeping a session alive, for an observer the adopter
/// installs (``SessionService/Configuration/observer``): a refresh started and why, how long the
/// exclusive section was waited for, what the server answered, whether a retry was scheduled, how
/// the session ended. Records of one refresh share its ``refreshID``.
///
/// A record never holds a token, an authorization code or a secret: only kinds, durations,
/// counts, HTTP statuses, the server's error codes and the store's error descriptions.
///
/// ```swift
/// var configuration = RepositoryService.Configuration.appAPI
/// configuration.observer = SessionObserver { record in print(record) }
/// // refresh 1: started (access token due)
/// // refresh 1: exclusive section entered after 0.000 s
/// // refresh 1: server answered in 0.042 s: rotated
/// // refresh 1: saved
/// ```
public struct SessionRecord: Sendable, Equatable, CustomStringConvertible {
    /// Which refresh of this service the record belongs to: 1 for its first, counting up.
    public let refreshID: Int
    /// When the engine made the decision, by ``SessionService/Configuration/now``.
    public let date: Date
    /// The decision.
    public let event: Event

    /// Creates a record; the engine makes these, tests of an observer may too.
    public init(refreshID: Int, date: Date, event: Event) {
        self.refreshID = refreshID
        self.date = date
        self.event = event
    }

    /// For example `refresh 3: server answered in 0.120 s: transient (HTTP 503, retry after 1 s)`.
    public var description: String { "refresh \(refreshID): \(event)" }
}
