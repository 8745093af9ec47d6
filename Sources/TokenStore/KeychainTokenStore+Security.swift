#if canImport(Security)
public import Foundation

extension KeychainTokenStore {
    /// Creates a store for the item `service`/`account` in the Keychain.
    /// - Parameters:
    ///   - service: The item's service, e.g. your bundle identifier.
    ///   - account: The item's account; `"credentials"` by default.
    ///   - accessGroup: The keychain access group the app shares with its extensions or other
    ///     apps (`TEAMID.com.example.shared`, or an App Group identifier), if any.
    ///   - appGroup: The App Group the app shares with its extensions (`group.com.example.shared`):
    ///     the lock file of the exclusive section and the change marker is then
    ///     `TokenStore/<service>-<account>.lock` in its container, so that the app and its
    ///     extensions take turns. A group without a container fails every section with
    ///     ``TokenStoreError/Kind/lockFailed``.
    ///   - lockFileURL: Another lock file for the same purpose (a folder the processes share); it
    ///     takes precedence over `appGroup`'s.
    ///   - options: The keychain, the accessibility, the lock timeout and the background activity.
    public convenience init(
        service: String,
        account: String = "credentials",
        accessGroup: String? = nil,
        appGroup: String? = nil,
        lockFileURL: URL? = nil,
        options: Options = Options()
    ) {
        let container = appGroup.map { group -> Result<URL, TokenStoreError> in
            guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                return .failure(TokenStoreError(
                    kind: .lockFailed, path: group,
                    reason: "the App Group has no container: add it to the App Groups entitlement of the app and of each extension"))
            }
            return .success(url)
        }
        self.init(service: service, account: account, accessGroup: accessGroup, groupContainer: container,
                  lockFileURL: lockFileURL, options: options, keychain: SecurityKeychain())
    }
}
#endif
