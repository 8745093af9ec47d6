import NIOCore

/// Applies a test-mode refresh fault to the current request.
enum TestFaults {
    /// Fails (500), waits, or drops the connection.
    /// - Throws: ``APIError`` `internal` for `fail`; ``ConnectionDropError`` for `drop` after closing the channel.
    static func apply(_ fault: TestModeState.Fault, context: AppRequestContext) async throws {
        switch fault {
        case .fail:
            throw APIError.internal("Test mode: injected refresh failure.")
        case .hang(let duration):
            try await Task.sleep(for: duration)
        case .drop:
            // Close the TCP connection before anything is written. Hummingbird's attempt to write a
            // response afterwards fails on the closed channel, so the client gets no bytes at all.
            try? await context.channel.close()
            throw ConnectionDropError()
        }
    }
}
