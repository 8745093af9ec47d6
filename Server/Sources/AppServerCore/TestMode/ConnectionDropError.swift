/// Thrown after a test-mode `drop` fault closed the connection: there is no response to send.
///
/// ``ErrorMiddleware`` lets it through; Hummingbird then fails to write to the closed channel and
/// gives up on the connection, so the client sees the connection close with no response at all.
public struct ConnectionDropError: Error, Equatable {
    /// Creates the error.
    public init() {}
}
