public import Foundation

extension PostgresTokenStoreFailure: LocalizedError {
    /// The same as ``description`` (the SQLSTATE and the server's one-line message, or the
    /// client's error code): an app that shows `localizedDescription` shows PostgreSQL's own
    /// reason, not Foundation's "The operation couldn't be completed".
    public var errorDescription: String? { description }
}
