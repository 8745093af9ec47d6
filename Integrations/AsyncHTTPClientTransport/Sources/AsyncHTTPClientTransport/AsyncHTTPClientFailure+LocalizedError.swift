public import Foundation

extension AsyncHTTPClientFailure: LocalizedError {
    /// The redacted ``summary``: an app that shows `localizedDescription` shows what went wrong
    /// (never the URL or a header), not Foundation's "The operation couldn't be completed".
    public var errorDescription: String? { summary }
}
