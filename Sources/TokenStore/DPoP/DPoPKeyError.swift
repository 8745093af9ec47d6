public import Foundation

/// A ``DPoPKey`` could not be made from the parts given: which part is wrong, in words, never
/// the key's value.
public struct DPoPKeyError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong, for example `the private key is 31 bytes, not 32`.
    public let reason: String

    /// An error saying what is wrong with a key's parts (never quoting a private part).
    public init(_ reason: String) {
        self.reason = reason
    }

    /// For example `not a usable DPoP key: the private key is 31 bytes, not 32`.
    public var description: String { "not a usable DPoP key: \(reason)" }

    /// The description.
    public var errorDescription: String? { description }
}
