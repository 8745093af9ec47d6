public import Foundation

/// Thrown when the client of a request has gone before the request reached the logic it asked
/// for (a refresh whose client was killed while the request was held): nothing was done, and
/// there is nobody to answer.
///
/// The route closes the connection before throwing it, and ``ErrorMiddleware`` lets it through
/// like ``ConnectionDropError``: Hummingbird then fails to write to the closed channel and gives
/// up on the connection. A client that only half-closed its side (rare for HTTP clients) sees
/// the connection close without an answer, a dropped connection it may retry.
public struct ClientGoneError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// "the client closed its connection before its request was processed; nothing was done".
    public var description: String { "the client closed its connection before its request was processed; nothing was done" }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
