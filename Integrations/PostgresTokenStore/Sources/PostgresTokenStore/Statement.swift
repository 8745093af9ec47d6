import PostgresNIO
import TokenStore

/// Runs one statement on a connection and never waits on a connection that closed.
///
/// PostgresNIO 1.33 fails the queries in flight when a connection closes, but a query written
/// to a connection that has already closed (a backend terminated, a database restarted while
/// a section held its connection) is never answered. So a statement is refused at once on a
/// closed connection, and one whose connection closes while it runs ends when it closes.
enum Statement {
    /// The connection closed before or while the statement ran.
    struct ConnectionClosed: Error {}

    static func run<T: Sendable>(
        _ sql: String,
        _ binds: PostgresBindings = PostgresBindings(),
        on connection: PostgresConnection,
        collect: @escaping @Sendable (PostgresRowSequence) async throws -> T
    ) async throws -> T {
        guard !connection.isClosed else { throw ConnectionClosed() }
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        let resumed = LockedValue(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            @Sendable func finish(_ result: Result<T, any Error>) {
                let first = resumed.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            Task {
                do {
                    let rows = try await connection.query(query, logger: connection.logger)
                    finish(.success(try await collect(rows)))
                } catch {
                    finish(.failure(error))
                }
            }
            connection.closeFuture.whenComplete { _ in finish(.failure(ConnectionClosed())) }
        }
    }

    /// Runs a statement whose rows, if any, are not needed.
    static func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), on connection: PostgresConnection) async throws {
        try await run(sql, binds, on: connection) { rows in
            for try await _ in rows {}
        }
    }
}
