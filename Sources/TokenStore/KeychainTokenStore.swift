public import Foundation

/// Keeps credentials in the Keychain, as one generic-password item holding the same JSON a
/// ``FileTokenStore`` writes; an app, its extensions and other apps of the same team can
/// share it.
///
/// ```swift
/// // An app and its widget or App Intents: one access group, one App Group.
/// let store = KeychainTokenStore(
///     service: "com.example.app", accessGroup: "TEAMID.com.example.shared", appGroup: "group.com.example.shared",
///     options: .init(backgroundActivity: .expiringActivity()))
/// ```
///
/// - **Where**: the data-protection keychain (also on macOS, where access groups then work as
///   on iOS; ``Keychain/legacyFile`` for a program without keychain entitlements), readable
///   after the device's first unlock and never moved to another device, unless
///   ``Options/accessibility`` says otherwise.
/// - **Processes that share the item take turns**: with an App Group, the exclusive section is
///   `flock` on a lock file in the group's container (`TokenStore/<service>-<account>.lock`), so
///   the app and its extensions refresh one at a time and each reads what the other saved;
///   `lockFileURL` names another lock file. Without either, the section holds within this
///   process only. ``Options/backgroundActivity`` keeps the process from being suspended
///   while it holds the section.
/// - **Cost**: a load reads the Keychain only when the item may have changed: every save and
///   clear writes a new change marker into the lock file, and a load that finds the marker it
///   last saw answers from memory. Without a lock file the marker lives in this process (for an
///   item in an access group, every load reads the Keychain instead, as another process could
///   have written it).
/// - **Failures**: a locked device or a prewarmed launch (`errSecInteractionNotAllowed`) is the
///   transient ``TokenStoreError/Kind/unavailable``: the session is kept and the call may be
///   tried again once the device is unlocked. Any other refusal is ``TokenStoreError/Kind/keychain``
///   with its `OSStatus`. An item that is not credentials this store can read is never
///   overwritten: ``save(_:)`` and ``clear()`` first keep it under the account
///   `<account>.unreadable-<UTC timestamp>`.
///
/// The initializer that uses the Keychain exists on Apple platforms only; elsewhere the type is
/// compiled so that the SDK's tests run its logic over an in-memory keychain.
public final class KeychainTokenStore: TokenStore, CustomStringConvertible {
    /// The item's service (`kSecAttrService`), e.g. your bundle identifier.
    public let service: String
    /// The item's account (`kSecAttrAccount`).
    public let account: String
    /// The Keychain access group shared with other apps or extensions, if any.
    public let accessGroup: String?
    /// The options the store was created with.
    public let options: Options
    /// The lock file of the exclusive section and the change marker, if any.
    public let lockFileURL: URL?

    private let keychain: any KeychainItems
    private let item: KeychainItem
    private let section: KeychainSection
    private let marker: KeychainChangeMarker
    /// The credentials as of a change marker (`nil` credentials: no item).
    private let cache = LockedValue<Cached?>(nil)

    private struct Cached: Sendable {
        var marker: String
        var credentials: Credentials?
    }

    /// Creates a store over `keychain`: the Security framework on Apple platforms, an
    /// `InMemoryKeychain` (AppSDKTesting) in tests.
    /// - Parameters:
    ///   - groupContainer: The App Group's container (a folder in tests), or why there is none;
    ///     the lock file is `TokenStore/<service>-<account>.lock` in it.
    ///   - lockFileURL: A lock file of your choice; it takes precedence over the container's.
    package init(
        service: String,
        account: String = "credentials",
        accessGroup: String? = nil,
        groupContainer: Result<URL, TokenStoreError>? = nil,
        lockFileURL: URL? = nil,
        options: Options = Options(),
        keychain: any KeychainItems
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.options = options
        self.keychain = keychain
        let item = KeychainItem(
            service: service, account: account, accessGroup: accessGroup,
            usesDataProtectionKeychain: options.keychain == .dataProtection)
        self.item = item
        let lockFile = lockFileURL.map { Result.success($0) }
            ?? groupContainer?.map { Self.lockFileURL(inGroupContainer: $0, service: service, account: account) }
        self.lockFileURL = try? lockFile?.get()
        section = KeychainSection(lockFile: lockFile, item: item, options: options, label: item.description)
        switch lockFile {
        case .success(let url): marker = KeychainChangeMarker(place: .lockFile(url.standardizedFileURL.path))
        case .failure: marker = KeychainChangeMarker(place: .none)
        case nil: marker = KeychainChangeMarker(place: accessGroup == nil ? .process(key: section.key) : .none)
        }
    }

    /// `TokenStore/<service>-<account>.lock` in an App Group's container, with every character
    /// but letters, digits, `.`, `-` and `_` written as `_`.
    package static func lockFileURL(inGroupContainer container: URL, service: String, account: String) -> URL {
        func safe(_ text: String) -> String {
            String(text.unicodeScalars.map { scalar -> Character in
                let allowed = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                return allowed ? Character(scalar) : "_"
            })
        }
        return container.appendingPathComponent("TokenStore", isDirectory: true)
            .appendingPathComponent("\(safe(service))-\(safe(account)).lock")
    }

    /// Reads the item; `nil` when there is none. Answered from memory while the change marker
    /// is the one of the last read or write.
    /// - Throws: ``TokenStoreError``: ``TokenStoreError/Kind/unavailable`` while the device is
    ///   locked, ``TokenStoreError/Kind/unreadable`` (or another format version) for an item
    ///   this store cannot read (left as it is), ``TokenStoreError/Kind/keychain`` otherwise.
    public func load() async throws(TokenStoreError) -> Credentials? {
        // Read before the item: a write after this read changes the marker the next load sees.
        let current = marker.read()
        if let current, let cached = cache.withLock({ $0 }), cached.marker == current {
            return cached.credentials
        }
        let credentials = try readItem()
        cache.withLock { $0 = current.map { Cached(marker: $0, credentials: credentials) } }
        return credentials
    }

    /// Replaces the item (adding it when missing), inside the exclusive section. An item this
    /// store cannot read is first moved to the account `<account>.unreadable-<UTC timestamp>`.
    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        let data = try CredentialsFile.encode(credentials, path: item.description)
        try await section.run { () throws(TokenStoreError) in
            _ = try moveItemAsideIfUnreadable()
            cache.withLock { $0 = nil }
            let next = try marker.change { () throws(TokenStoreError) in try write(data) }
            cache.withLock { $0 = next.map { Cached(marker: $0, credentials: credentials) } }
        }
    }

    /// Deletes the item, inside the exclusive section; nothing happens when there is none. An
    /// item this store cannot read is moved to the account `<account>.unreadable-<UTC timestamp>` instead.
    public func clear() async throws(TokenStoreError) {
        try await section.run { () throws(TokenStoreError) in
            _ = try moveItemAsideIfUnreadable()
            cache.withLock { $0 = nil }
            let next = try marker.change { () throws(TokenStoreError) in
                let status = keychain.delete(item)
                guard status == .success || status == .itemNotFound else { throw failure(status, "delete") }
            }
            cache.withLock { $0 = next.map { Cached(marker: $0, credentials: nil) } }
        }
    }

    /// Moves an item this store cannot read (not credentials, or another format version) to the
    /// account `<account>.unreadable-<UTC timestamp>` (then `-2`, `-3`, …) of the same service,
    /// inside the exclusive section, and returns that account; `nil` when there is no item or it
    /// reads (it is then left as it is). ``save(_:)`` and ``clear()`` do the same first; call
    /// this to tell someone where the item went.
    public func moveAsideIfUnreadable() async throws(TokenStoreError) -> String? {
        try await section.run { () throws(TokenStoreError) in try moveItemAsideIfUnreadable() }
    }

    /// Runs `body` while no other task of this process (and, with a lock file, no other process
    /// using it) runs an exclusive section of this item. Nested calls from the same task tree
    /// run directly.
    /// - Throws: `CancellationError` when the task is cancelled while waiting;
    ///   ``TokenStoreError``: ``TokenStoreError/Kind/lockFailed`` when the lock cannot be taken,
    ///   ``TokenStoreError/Kind/unavailable`` when the background activity's time ran out and
    ///   `body` stopped on the cancellation; or what `body` throws.
    public func withExclusiveAccess<T: Sendable>(
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await section.run(body)
    }

    /// `KeychainTokenStore(<service>/<account>)`.
    public var description: String { "KeychainTokenStore(\(service)/\(account))" }

    // MARK: - The item

    private func readItem() throws(TokenStoreError) -> Credentials? {
        let (status, data) = keychain.copyData(of: item)
        if status == .itemNotFound { return nil }
        guard status == .success, let data else { throw failure(status, "read") }
        return try CredentialsFile.decode(data, path: item.description)
    }

    private func write(_ data: [UInt8]) throws(TokenStoreError) {
        var status = keychain.update(item, data: data, accessibility: options.accessibility)
        if status == .itemNotFound {
            status = keychain.add(item, data: data, accessibility: options.accessibility)
            // Added meanwhile by a writer outside the section: replace it all the same.
            if status == .duplicateItem { status = keychain.update(item, data: data, accessibility: options.accessibility) }
        }
        guard status == .success else { throw failure(status, "save") }
    }

    /// Inside the section: moves an unreadable item to a new account (a copy there, then the
    /// item deleted) and returns that account.
    private func moveItemAsideIfUnreadable() throws(TokenStoreError) -> String? {
        if let current = marker.read(), let cached = cache.withLock({ $0 }), cached.marker == current {
            return nil  // read (or written) by this store since the last change
        }
        let (status, data) = keychain.copyData(of: item)
        if status == .itemNotFound { return nil }
        guard status == .success, let data else { throw failure(status, "read") }
        do throws(TokenStoreError) {
            _ = try CredentialsFile.decode(data, path: item.description)
            return nil
        } catch where error.kind == .unreadable || error.kind == .unsupportedFormatVersion {
            let destination = try copyAside(data)
            cache.withLock { $0 = nil }
            let next = try marker.change { () throws(TokenStoreError) in
                let deleted = keychain.delete(item)
                guard deleted == .success || deleted == .itemNotFound else { throw failure(deleted, "delete") }
            }
            cache.withLock { $0 = next.map { Cached(marker: $0, credentials: nil) } }
            return destination
        }
    }

    private func copyAside(_ data: [UInt8]) throws(TokenStoreError) -> String {
        let stamp = Date().formatted(
            .iso8601.year().month().day().dateSeparator(.omitted)
                .time(includingFractionalSeconds: false).timeSeparator(.omitted).timeZone(separator: .omitted)
        )
        for attempt in 1...100 {
            let name = "\(account).unreadable-\(stamp)" + (attempt == 1 ? "" : "-\(attempt)")
            let status = keychain.add(item.withAccount(name), data: data, accessibility: options.accessibility)
            if status == .success { return name }
            guard status == .duplicateItem else { throw failure(status, "keep a copy of") }
        }
        throw TokenStoreError(kind: .keychain, path: item.description, reason: "could not find a free account to keep the unreadable item under")
    }

    /// The error for a status other than success (and not-found where that is fine).
    private func failure(_ status: KeychainStatus, _ action: String) -> TokenStoreError {
        switch status {
        case .interactionNotAllowed:
            return TokenStoreError(
                kind: .unavailable, path: item.description,
                reason: "the Keychain cannot \(action) it while the device is locked (or not yet unlocked since it started, "
                    + "as in a prewarmed launch); nothing was changed: try again once it is unlocked "
                    + "(errSecInteractionNotAllowed, \(status))"
            )
        case .missingEntitlement:
            let what = accessGroup.map { "the access group \($0)" } ?? "the data-protection keychain"
            return TokenStoreError(
                kind: .keychain, path: item.description,
                reason: "the app is not entitled to \(what): add it to the keychain-access-groups entitlement "
                    + "(a program without one uses the legacy file keychain of macOS: Options(keychain: .legacyFile)) "
                    + "(errSecMissingEntitlement, \(status))"
            )
        default:
            return TokenStoreError(kind: .keychain, path: item.description, reason: "the Keychain refused to \(action) it (\(status))")
        }
    }
}
