#if canImport(Security)
public import Foundation
import Security

/// Keeps credentials in the Keychain, as one generic-password item (the same JSON a
/// ``FileTokenStore`` writes), readable after the device's first unlock and never synced
/// or migrated to another device.
///
/// The Keychain has no cross-process lock. ``withExclusiveAccess(_:)`` holds within the
/// process, and across processes (an app and its extensions, say) only when you pass
/// `lockFileURL`, a file in a folder they share; `flock` on it is then taken as for the file stores.
///
/// Unlike the file stores, an unreadable item is not kept aside: ``save(_:)`` replaces it.
///
/// This store is compiled on Apple platforms only and is not covered by the Linux test suite.
public final class KeychainTokenStore: TokenStore, CustomStringConvertible {
    /// The item's service (`kSecAttrService`), e.g. your bundle identifier.
    public let service: String
    /// The item's account (`kSecAttrAccount`).
    public let account: String
    /// The Keychain access group shared with other apps or extensions, if any.
    public let accessGroup: String?
    private let section: SectionLock?
    private let processSection = InProcessSection(kind: "keychain")

    /// Creates a store for the item `service`/`account`.
    /// - Parameters:
    ///   - service: The item's service, e.g. your bundle identifier.
    ///   - account: The item's account; `"credentials"` by default.
    ///   - accessGroup: A Keychain access group shared with other targets, if any.
    ///   - lockFileURL: A lock file for exclusive sections across processes; `nil` for one process only.
    public init(service: String, account: String = "credentials", accessGroup: String? = nil, lockFileURL: URL? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.section = lockFileURL.map { SectionLock(lockFileURL: $0, timeout: nil) }
    }

    private var label: String { "keychain item \(service)/\(account)" }

    private var query: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func failure(_ status: OSStatus, _ action: String) -> TokenStoreError {
        TokenStoreError(kind: .keychain, path: label, reason: "the Keychain refused to \(action) it (OSStatus \(status))")
    }

    /// Reads the item; `nil` when there is none.
    public func load() async throws(TokenStoreError) -> Credentials? {
        var query = self.query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw failure(status, "read") }
        return try CredentialsFile.decode(Array(data), path: label)
    }

    /// Replaces the item (adding it when missing).
    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        let data = Data(try CredentialsFile.encode(credentials, path: label))
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw failure(status, "save") }
    }

    /// Deletes the item; nothing happens when there is none.
    public func clear() async throws(TokenStoreError) {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw failure(status, "delete") }
    }

    /// Runs `body` while no other task of this process (and, with a `lockFileURL`, no other
    /// process using that file) runs an exclusive section of this item. Nested calls from the
    /// same task tree run directly.
    public func withExclusiveAccess<T: Sendable>(
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        if let section {
            return try await section.run(cancellable: true, body)
        }
        return try await processSection.run(body)
    }

    /// `KeychainTokenStore(<service>/<account>)`.
    public var description: String { "KeychainTokenStore(\(service)/\(account))" }
}
#endif
