import PostgresNIO
import TokenStore

/// The cross-process half of the exclusive section: a session-level PostgreSQL advisory lock
/// (`pg_try_advisory_lock(bigint)`) taken on the section's dedicated connection.
///
/// Why this and not `SELECT … FOR UPDATE`: the section spans a token refresh over the network
/// (seconds). A row lock needs a transaction open for all that time (holding back vacuum,
/// and making every load and save of the section part of it), and only locks a row that
/// exists. An advisory lock keeps no transaction open, works before the first row exists,
/// and PostgreSQL releases it by itself when the holder's connection ends: a process that
/// dies, or whose network drops, never leaves the section locked.
///
/// Waiting polls `pg_try_advisory_lock` (every 2 ms, doubling to 50 ms) instead of blocking
/// in `pg_advisory_lock`, so the wait stops at once when the task is cancelled and the
/// timeout is kept on this side, without a server-side `lock_timeout` left on a pooled
/// connection.
enum AdvisoryLock {
    static func acquire(
        _ key: Int64, on connection: PostgresConnection, timeout: Duration?, cancellable: Bool, location: String
    ) async throws {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var delay = Duration.milliseconds(2)
        while true {
            let acquired: Bool
            do {
                acquired = try await query(bool: "SELECT pg_try_advisory_lock($1)", key, on: connection)
            } catch {
                throw DatabaseErrors.map(error, location: location, doing: "taking the lock")
            }
            if acquired { return }
            if cancellable { try Task.checkCancellation() }
            if let deadline, let timeout {
                let left = deadline - clock.now
                guard left > .zero else {
                    throw TokenStoreError(
                        kind: .lockFailed, path: location,
                        reason: "another process held the exclusive section for longer than the lock timeout (\(timeout))"
                    )
                }
                delay = min(delay, left)
            }
            if cancellable {
                try await Task.sleep(for: delay)
            } else {
                // A save that started finishes: sleep in a task that is not cancelled with this one.
                let pause = delay
                await Task.detached { try? await Task.sleep(for: pause) }.value
            }
            delay = min(delay * 2, .milliseconds(50))
        }
    }

    /// Releases the lock; when that fails (or the lock was somehow not held), closes the
    /// connection, which makes PostgreSQL release every lock it held, so a pooled connection
    /// never goes back to the pool still holding the section.
    static func release(_ key: Int64, on connection: PostgresConnection) async {
        let released = (try? await query(bool: "SELECT pg_advisory_unlock($1)", key, on: connection)) ?? false
        if !released {
            try? await connection.close()
        }
    }

    private static func query(bool sql: String, _ key: Int64, on connection: PostgresConnection) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(key)
        return try await Statement.run(sql, binds, on: connection) { rows in
            var result = false
            for try await value in rows.decode(Bool.self) {
                result = value
            }
            return result
        }
    }
}
