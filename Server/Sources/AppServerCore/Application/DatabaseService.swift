import ServiceLifecycle

/// Closes the database when the application shuts down (after the HTTP server has stopped).
struct DatabaseService: Service {
    let database: Database

    func run() async throws {
        // Wait for graceful shutdown (or cancellation), then close.
        try? await gracefulShutdown()
        // Close in a detached task: when this task is cancelled, SQLiteNIO's thread-pool hop would
        // refuse to run and leave the connection open.
        let database = self.database
        await Task.detached { await database.close() }.value
    }
}
