/// Which keychain item an operation is about: one generic-password item, named by its
/// service and account, in an access group (or the app's default one) of the
/// data-protection keychain or of the legacy file keychain of macOS.
package struct KeychainItem: Hashable, Sendable, CustomStringConvertible {
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`; `nil` for the app's default group (on add) or any of its groups (on a query).
    package var accessGroup: String?
    /// `kSecUseDataProtectionKeychain`.
    package var usesDataProtectionKeychain: Bool

    /// Names an item.
    package init(service: String, account: String, accessGroup: String? = nil, usesDataProtectionKeychain: Bool = true) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
    }

    /// The same item under another account (where an unreadable item is kept).
    func withAccount(_ account: String) -> KeychainItem {
        var item = self
        item.account = account
        return item
    }

    /// `keychain item <service>/<account>`, with ` in access group <group>` when there is one.
    package var description: String {
        "keychain item \(service)/\(account)" + (accessGroup.map { " in access group \($0)" } ?? "")
    }
}
