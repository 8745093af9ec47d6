/// The four keychain operations ``KeychainTokenStore`` is written against, each answering
/// with a ``KeychainStatus``: on Apple platforms one `SecItem*` call each (`SecurityKeychain`),
/// in tests AppSDKTesting's `InMemoryKeychain`, which answers as the real one does. The store's own logic
/// (encoding, unreadable items, what each status means, the cache and the exclusive section)
/// lives in the store, so the tests cover it on every platform.
package protocol KeychainItems: Sendable {
    /// `SecItemCopyMatching` with `kSecReturnData` and `kSecMatchLimitOne`: the item's data.
    func copyData(of item: KeychainItem) -> (status: KeychainStatus, data: [UInt8]?)
    /// `SecItemAdd` with `kSecValueData` and `kSecAttrAccessible`.
    func add(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus
    /// `SecItemUpdate` of `kSecValueData` and `kSecAttrAccessible`.
    func update(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus
    /// `SecItemDelete`.
    func delete(_ item: KeychainItem) -> KeychainStatus
}
