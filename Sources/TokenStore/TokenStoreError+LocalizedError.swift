public import Foundation

extension TokenStoreError: LocalizedError {
    /// The same as ``description``: an app that shows `localizedDescription` shows the store's
    /// own message (the place and the cause, never a token or a key), not Foundation's
    /// "The operation couldn't be completed".
    public var errorDescription: String? { description }
}
