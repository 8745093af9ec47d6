public import Foundation

extension SessionRecord {
    /// A decision of the engine, in the order a refresh makes them.
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        /// A refresh started, and why.
        case refreshStarted(RefreshCause)
        /// A caller needed a refresh while this one was in flight, and waits for its result.
        case joinedRefresh(RefreshCause)
        /// The store's exclusive section was entered after waiting this many seconds for it
        /// (for another process's refresh, say).
        case exclusiveSectionEntered(waited: TimeInterval)
        /// The store, re-read inside the exclusive section, already held newer tokens (another
        /// process or caller refreshed): they are used and the server is not called.
        case storeHeldNewerTokens
        /// The refresh limit counted a refresh the expiry does not explain: `count` of the
        /// `limit` its interval allows (``RefreshLimit``).
        case refreshLimitCounted(count: Int, limit: Int)
        /// The refresh limit refused the refresh: its interval already held `count` unexplained
        /// refreshes (the call fails with ``SessionError/Kind/refreshLimitExceeded``).
        case refreshLimitExceeded(count: Int)
        /// The server answered attempt `attempt` (1 for the first) after `duration` seconds.
        case serverAnswered(attempt: Int, duration: TimeInterval, outcome: RefreshOutcome)
        /// The server asked attempt `attempt` for a DPoP proof with its nonce again, after the
        /// request had been sent once more with the nonce it gave (``RefreshFailure/Kind/dpopNonce``):
        /// never a failure of the refresh token, and never counted by the refresh limit. No
        /// nonce or proof is recorded.
        case dpopNonceChallenge(attempt: Int)
        /// The server refused the refresh's DPoP proof (`invalid_dpop_proof`): the session is kept.
        case dpopProofRefused
        /// The refresh is tried again as attempt `attempt` after `delay` seconds, with the same
        /// refresh token (``RefreshRetryPolicy``).
        case retryScheduled(attempt: Int, delay: TimeInterval)
        /// The rotated credentials were saved to the store.
        case saved
        /// The store could not save the rotated credentials: they are kept in memory and saved
        /// again on the next call; the store's error follows as ``storeFailed(_:error:)``.
        case keptInMemory
        /// The session ended, and why (the store is cleared, `signedOut` sent).
        case sessionEnded(SignOutReason)
        /// A store operation failed; `error` is the store error's description.
        case storeFailed(StoreOperation, error: String)
        /// The refresh ended, `duration` seconds after it started: with credentials for its
        /// callers (`succeeded`), or with an error. Always its last record.
        case refreshFinished(duration: TimeInterval, succeeded: Bool)

        /// One line without any token.
        public var description: String {
            switch self {
            case let .refreshStarted(cause): "started (\(cause))"
            case let .joinedRefresh(cause): "joined by a caller (\(cause))"
            case let .exclusiveSectionEntered(waited): "exclusive section entered after \(Self.seconds(waited))"
            case .storeHeldNewerTokens: "the store already held newer tokens (another process or caller refreshed): no server call"
            case let .refreshLimitCounted(count, limit): "refresh limit counted an unexplained refresh (\(count) of \(limit))"
            case let .refreshLimitExceeded(count): "refresh limit exceeded (\(count) unexplained refreshes in its interval)"
            case let .serverAnswered(attempt, duration, outcome):
                "server answered \(attempt == 1 ? "" : "attempt \(attempt) ")in \(Self.seconds(duration)): \(outcome)"
            case let .dpopNonceChallenge(attempt): "the server asked attempt \(attempt) for a DPoP nonce again"
            case .dpopProofRefused: "the server refused the DPoP proof"
            case let .retryScheduled(attempt, delay): "retry scheduled: attempt \(attempt) in \(Self.seconds(delay))"
            case .saved: "saved"
            case .keptInMemory: "kept in memory (the store could not save it)"
            case let .sessionEnded(reason): "session ended (\(reason))"
            case let .storeFailed(operation, error): "store \(operation) failed: \(error)"
            case let .refreshFinished(duration, succeeded): "finished in \(Self.seconds(duration)): \(succeeded ? "succeeded" : "failed")"
            }
        }

        private static func seconds(_ value: TimeInterval) -> String {
            String(format: "%.3f s", value.isFinite ? value : 0)
        }
    }

    /// The store operation a ``Event/storeFailed(_:error:)`` record names.
    public enum StoreOperation: String, Sendable, Equatable, CustomStringConvertible {
        /// Entering the exclusive section.
        case exclusiveAccess
        /// Reading the credentials.
        case load
        /// Saving the rotated credentials.
        case save
        /// Clearing the credentials of an ended session.
        case clear

        /// The raw value.
        public var description: String { rawValue }
    }
}
