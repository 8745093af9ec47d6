/// Thrown when the client of a request closed its connection before the request reached the
/// logic it asked for (a refresh whose client was killed while the request was held): nothing
/// was done, and there is nobody to answer.
///
/// ``ErrorMiddleware`` lets it through like ``ConnectionDropError``; Hummingbird then fails to
/// write to the closed channel and gives up on the connection.
public struct ClientGoneError: Error, Equatable {
    /// Creates the error.
    public init() {}
}
