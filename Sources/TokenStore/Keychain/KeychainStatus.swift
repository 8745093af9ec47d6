/// The result of one keychain item operation, as an `OSStatus` code that means the same on
/// every platform: the Apple adapter passes `SecItem*`'s status through unchanged, and the
/// in-memory keychain answers with the same codes. The constants are the values of the
/// `errSec*` constants of Apple's Security framework (`SecBase.h`).
package struct KeychainStatus: Hashable, Sendable, CustomStringConvertible {
    /// The `OSStatus` code.
    package let code: Int32

    /// Wraps an `OSStatus` code.
    package init(code: Int32) { self.code = code }

    /// `errSecSuccess`.
    package static let success = KeychainStatus(code: 0)
    /// `errSecItemNotFound`: no item matches the query.
    package static let itemNotFound = KeychainStatus(code: -25300)
    /// `errSecDuplicateItem`: an add found the item already there.
    package static let duplicateItem = KeychainStatus(code: -25299)
    /// `errSecInteractionNotAllowed`: the item's data is protected and the device is locked
    /// (or has not been unlocked since it started, as in a prewarmed launch).
    package static let interactionNotAllowed = KeychainStatus(code: -25308)
    /// `errSecMissingEntitlement`: the access group is not among the app's entitlements
    /// (or, for the data-protection keychain on macOS, the program has none).
    package static let missingEntitlement = KeychainStatus(code: -34018)

    /// `OSStatus -25300`.
    package var description: String { "OSStatus \(code)" }
}
