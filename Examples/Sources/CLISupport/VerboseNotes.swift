import Foundation
public import SessionEngine

/// What `--verbose` prints about the session, from the engine's own records (one source of
/// truth): when a refresh starts and why, a wait for another program's exclusive section,
/// whether another program had already refreshed, what the server answered, each retry, and
/// that the new tokens were saved (only once the store took them).
public enum VerboseNotes {
    /// An observer that hands each note to `note`.
    /// - Parameters:
    ///   - refreshCall: The request a refresh sends, as the notes name it: the app server's
    ///     `POST /v1/auth/refresh` by default, an OAuth server's token endpoint for app-oauth.
    ///   - note: Where each note goes.
    public static func observer(refreshCall: String = appRefreshCall,
                                _ note: @escaping @Sendable (String) -> Void) -> SessionObserver {
        SessionObserver { record in
            if let text = Self.note(for: record, refreshCall: refreshCall) { note(text) }
        }
    }

    /// The app server's refresh request.
    public static let appRefreshCall = "POST /v1/auth/refresh"

    /// The note for `record`, or `nil` for the steps not worth a line.
    static func note(for record: SessionRecord, refreshCall: String = appRefreshCall) -> String? {
        switch record.event {
        case let .refreshStarted(cause):
            switch cause {
            case .due: return "refresh \(record.refreshID): the access token is due"
            case .authenticationFailure: return "refresh \(record.refreshID): the server refused the access token (\(cause))"
            }
        case let .exclusiveSectionEntered(waited):
            return waited >= 0.1 ? "waited \(seconds(waited)) for the store's exclusive section (another program held it)" : nil
        case .storeHeldNewerTokens:
            return "another program already refreshed: its new tokens are used, without calling the server"
        case let .serverAnswered(attempt, duration, outcome):
            let call = attempt == 1 ? refreshCall : "\(refreshCall) (attempt \(attempt))"
            return "the access token needs refreshing: \(call) answered in \(seconds(duration)): \(outcome)"
        case let .dpopNonceChallenge(attempt):
            return "the server asked for a DPoP nonce again (attempt \(attempt)): the refresh failed for now, the session is kept"
        case .dpopProofRefused:
            return "the server refused the refresh's DPoP proof: the session is kept"
        case let .retryScheduled(attempt, delay):
            return "trying the refresh again in \(seconds(delay)) (attempt \(attempt))"
        case .saved:
            return "refreshed; the new tokens are saved in the store"
        case .keptInMemory:
            return "the store could not save the new tokens: they are used for this run only"
        case let .refreshLimitExceeded(count):
            return "refresh limit exceeded: the server refused \(count) fresh access tokens before they were due; refreshing stops for a while"
        case let .sessionEnded(reason):
            return "the session ended: \(reason)"
        case let .storeFailed(operation, error):
            return "the token store failed (\(operation)): \(error)"
        case .joinedRefresh, .refreshLimitCounted, .refreshFinished:
            return nil
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        String(format: "%.1f s", value.isFinite ? max(value, 0) : 0)
    }
}
