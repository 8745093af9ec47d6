#if canImport(Security)
import Foundation
import Security

/// The Keychain itself: each operation is one `SecItem*` call on a generic-password item, and
/// its `OSStatus` is passed on as it is.
struct SecurityKeychain: KeychainItems {
    func copyData(of item: KeychainItem) -> (status: KeychainStatus, data: [UInt8]?) {
        var query = Self.query(item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (KeychainStatus(code: status), (result as? Data).map { Array($0) })
    }

    func add(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        var query = Self.query(item)
        query[kSecValueData as String] = Data(data)
        query[kSecAttrAccessible as String] = Self.constant(accessibility)
        return KeychainStatus(code: SecItemAdd(query as CFDictionary, nil))
    }

    func update(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        let attributes: [String: Any] = [
            kSecValueData as String: Data(data),
            kSecAttrAccessible as String: Self.constant(accessibility),
        ]
        return KeychainStatus(code: SecItemUpdate(Self.query(item) as CFDictionary, attributes as CFDictionary))
    }

    func delete(_ item: KeychainItem) -> KeychainStatus {
        KeychainStatus(code: SecItemDelete(Self.query(item) as CFDictionary))
    }

    /// The attributes that name the item.
    private static func query(_ item: KeychainItem) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: item.service,
            kSecAttrAccount as String: item.account,
        ]
        if let accessGroup = item.accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if item.usesDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
        return query
    }

    private static func constant(_ accessibility: KeychainTokenStore.Accessibility) -> CFString {
        switch accessibility {
        case .afterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        case .whenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
        case .whenPasscodeSetThisDeviceOnly: return kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
