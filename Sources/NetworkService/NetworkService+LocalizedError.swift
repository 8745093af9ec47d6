public import Foundation

// An app that shows `error.localizedDescription` shows the SDK's own message, not Foundation's
// "The operation couldn't be completed". The descriptions are redacted already: no token, no
// password, no secret header. (TransportError declares its conformance itself.)

extension NetworkError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
