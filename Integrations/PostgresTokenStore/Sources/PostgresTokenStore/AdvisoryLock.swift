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
/// A free lock is taken at once (`pg_try_advisory_lock`). A held one is waited for in
/// `pg_advisory_lock`, which PostgreSQL wakes when the holder releases it: no polling. The wait
/// is ended, when the task is cancelled or the timeout passes, by closing the connection:
/// PostgreSQL then drops the waiting query (and the lock, had it just been granted), and the
/// pool replaces the connection. No server-side `lock_timeout` is left on a pooled connection.
enum AdvisoryLock {
    /// Why a wait was ended from this side.
    private enum Ending: Sendable { case cancelled, timedOut }

    static func acquire(
        _ key: Int64, on connection: PostgresConnection, timeout: Duration?, cancellable: Bool, location: String
    ) async throws {
        do {
            if try await query(bool: "SELECT pg_try_advisory_lock($1)", key, on: connection) { return }
        } catch {
            throw DatabaseErrors.map(error, location: location, doing: "taking the lock")
        }
        if cancellable { try Task.checkCancellation() }
        let ending = LockedValue<Ending?>(nil)
        @Sendable func end(_ why: Ending) {
            let first = ending.withLock { ending -> Bool in
                guard ending == nil else { return false }
                ending = why
                return true
            }
            if first { Task { try? await connection.close() } }
        }
        let timer = timeout.map { timeout in
            Task {
                do { try await Task.sleep(for: timeout) } catch { return }
                end(.timedOut)
            }
        }
        defer { timer?.cancel() }
        var failure: (any Error)?
        do {
            var binds = PostgresBindings()
            binds.append(key)
            try await withTaskCancellationHandler {
                try await Statement.execute("SELECT pg_advisory_lock($1)", binds, on: connection)
            } onCancel: {
                if cancellable { end(.cancelled) }
            }
        } catch {
            failure = error
        }
        // Ended from this side (even if the lock was granted just then: the connection is
        // closing, and the lock goes with it).
        switch ending.withLock({ $0 }) {
        case .timedOut?:
            throw TokenStoreError(
                kind: .lockFailed, path: location,
                reason: "another process held the exclusive section for longer than the lock timeout (\(timeout.map { "\($0)" } ?? "none"))"
            )
        case .cancelled?:
            throw CancellationError()
        case nil:
            if let failure { throw DatabaseErrors.map(failure, location: location, doing: "taking the lock") }
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
