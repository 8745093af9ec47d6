import Hummingbird
import NIOCore

/// Applies a test-mode refresh fault to the current request.
enum TestFaults {
    /// Fails (500, or 503 with `Retry-After`), waits, or drops the connection.
    /// - Throws: ``APIError`` `internal` for `fail` and `unavailable`; ``ConnectionDropError`` for
    ///   `drop` and `dropResponse` after closing the channel.
    static func apply(_ fault: TestModeState.Fault, context: AppRequestContext) async throws {
        switch fault {
        case .fail:
            throw APIError.internal("Test mode: injected refresh failure.")
        case .hang(let duration):
            try await Task.sleep(for: duration)
        case .unavailable(let seconds):
            throw APIError(status: .serviceUnavailable, code: .internal,
                           message: "Test mode: injected unavailability.", retryAfter: seconds)
        case .drop, .dropResponse:
            // Close the TCP connection before anything is written. Hummingbird's attempt to write a
            // response afterwards fails on the closed channel, so the client gets no bytes at all.
            try? await context.channel.close()
            throw ConnectionDropError()
        }
    }
}
