import PostgresNIO
import TokenStore

/// Leases a connection from a `PostgresClient`, giving up on the wait (not on the work) after
/// a timeout: the pool queues a lease while the database refuses connections (for up to a
/// minute before its own circuit breaker), and a store call should say much sooner that the
/// database is unavailable.
enum ConnectionLease {
    private struct TimedOut: Error {}

    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case leasedInTime
    }

    /// Decided once, under a lock: whichever of the lease and the timer comes first wins.
    private enum State: Sendable {
        case waiting, leased, timedOut
    }

    /// Runs `body` with a leased connection. Errors before a connection was leased are
    /// ``TokenStoreError``s (``TokenStoreError/Kind/unavailable``, or
    /// ``TokenStoreError/Kind/database`` when `probe` finds the login refused), or
    /// `CancellationError` when the task was cancelled; errors of `body` pass through as they are.
    static func with<T: Sendable>(
        _ client: PostgresClient,
        timeout: Duration,
        location: String,
        probe: LoginProbe? = nil,
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let state = LockedValue(State.waiting)
        do {
            return try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                    group.addTask {
                        try await .value(client.withConnection { connection in
                            let inTime = state.withLock { state in
                                guard state == .waiting else { return false }
                                state = .leased
                                return true
                            }
                            guard inTime else { throw TimedOut() }
                            return try await body(connection)
                        })
                    }
                    group.addTask {
                        try? await Task.sleep(for: timeout)
                        // Cancelled: the work finished, or the caller gave up (the lease stops with it).
                        if Task.isCancelled { return .leasedInTime }
                        let late = state.withLock { state in
                            guard state == .waiting else { return false }
                            state = .timedOut
                            return true
                        }
                        if late { throw TimedOut() }
                        return .leasedInTime
                    }
                    while let outcome = try await group.next() {
                        if case .value(let value) = outcome {
                            group.cancelAll()
                            return value
                        }
                    }
                    throw CancellationError()   // not reached: the work child always returns or throws
                }
            }
        } catch {
            let outcome = state.withLock { $0 }
            if outcome == .leased { throw error }
            if outcome == .timedOut {
                if let probe, let refusal = await probe.refusal(location: location, within: timeout) { throw refusal }
                throw TokenStoreError(
                    kind: .unavailable, path: location,
                    reason: "no connection to the database within \(timeout) (it refuses connections, cannot be reached, or the PostgresClient is not running)"
                )
            }
            if Task.isCancelled { throw CancellationError() }
            throw DatabaseErrors.map(error, location: location, doing: "connecting")
        }
    }
}
