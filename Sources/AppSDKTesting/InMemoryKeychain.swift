public import Foundation
public import TokenStore

/// A keychain in memory that answers like the real one, so that tests of code over a
/// ``TokenStore/KeychainTokenStore`` run on any platform, and can lock the device.
///
/// ```swift
/// let keychain = InMemoryKeychain()
/// let store = keychain.tokenStore(service: "com.example.app")
/// keychain.setDeviceState(.locked)   // items that need an unlocked device are now unavailable
/// ```
///
/// What it mimics:
/// - **Duplicate item**: adding an item that exists answers `errSecDuplicateItem`.
/// - **Not found**: reading, updating or deleting a missing item answers `errSecItemNotFound`.
/// - **Interaction not allowed**: while the device is locked, an item whose accessibility needs
///   an unlocked device cannot be read, added or updated; before the first unlock (a prewarmed
///   launch) no protected item can (`errSecInteractionNotAllowed`, which the store reports as
///   ``TokenStore/TokenStoreError/Kind/unavailable``).
/// - **Access groups**: the data-protection keychain keeps items per access group; an access
///   group outside ``entitledAccessGroups`` answers `errSecMissingEntitlement`, an item added
///   without a group goes to the first entitled one (the app's default group), and a query
///   without a group searches every entitled group. The legacy file keychain of macOS is a
///   separate set of items without groups.
///
/// Every read of an item's data is counted in ``reads``, and ``failing(_:withOSStatus:times:)``
/// makes an operation answer any status.
public final class InMemoryKeychain: KeychainItems {
    /// Whether the device is unlocked.
    public enum DeviceState: Sendable {
        /// Started but never unlocked since (a prewarmed launch).
        case beforeFirstUnlock
        /// Locked after the first unlock.
        case locked
        /// Unlocked.
        case unlocked
    }

    /// A keychain operation, for ``failing(_:withOSStatus:times:)``.
    public enum Operation: Hashable, Sendable {
        /// Reading an item's data (`SecItemCopyMatching`).
        case copy
        /// Adding an item (`SecItemAdd`).
        case add
        /// Changing an item (`SecItemUpdate`).
        case update
        /// Deleting an item (`SecItemDelete`).
        case delete
    }

    private struct Key: Hashable {
        var dataProtection: Bool
        var accessGroup: String?
        var service: String
        var account: String
    }

    private struct Stored {
        var data: [UInt8]
        var accessibility: KeychainTokenStore.Accessibility
    }

    private struct State {
        var items: [Key: Stored] = [:]
        var deviceState = DeviceState.unlocked
        var reads = 0
        var failures: [Operation: (status: KeychainStatus, remaining: Int?)] = [:]

        /// The status `operation` is made to answer this time, if any.
        mutating func failure(_ operation: Operation) -> KeychainStatus? {
            guard let failure = failures[operation] else { return nil }
            if let remaining = failure.remaining {
                failures[operation] = remaining > 1 ? (failure.status, remaining - 1) : nil
            }
            return failure.status
        }
    }

    /// The access groups the app is entitled to; the first is its default group.
    public let entitledAccessGroups: [String]
    private let state = LockedValue(State())

    /// An empty, unlocked keychain of an app entitled to `entitledAccessGroups`.
    public init(entitledAccessGroups: [String] = ["TEAMID.com.example.app"]) {
        self.entitledAccessGroups = entitledAccessGroups
    }

    /// A ``TokenStore/KeychainTokenStore`` over this keychain, with the parameters of the
    /// store's own initializer; `lockFileURL` is the exclusive section's lock file (a file in a
    /// temporary folder stands for an App Group's container).
    public func tokenStore(
        service: String,
        account: String = "credentials",
        accessGroup: String? = nil,
        lockFileURL: URL? = nil,
        options: KeychainTokenStore.Options = KeychainTokenStore.Options()
    ) -> KeychainTokenStore {
        KeychainTokenStore(service: service, account: account, accessGroup: accessGroup, lockFileURL: lockFileURL,
                           options: options, keychain: self)
    }

    /// Locks, unlocks or restarts the device.
    public func setDeviceState(_ deviceState: DeviceState) {
        state.withLock { $0.deviceState = deviceState }
    }

    /// How many times an item's data was asked for.
    public var reads: Int { state.withLock { $0.reads } }

    /// Makes the next `times` calls of `operation` (every later one when `nil`) answer the
    /// `OSStatus` `code` without doing anything (`-25308`, `errSecInteractionNotAllowed`, say); a
    /// `nil` code answers normally again.
    public func failing(_ operation: Operation, withOSStatus code: Int32?, times: Int? = nil) {
        failing(operation, with: code.map(KeychainStatus.init(code:)), times: times)
    }

    /// ``failing(_:withOSStatus:times:)`` with the SDK's own status type.
    package func failing(_ operation: Operation, with status: KeychainStatus?, times: Int? = nil) {
        state.withLock { $0.failures[operation] = status.map { ($0, times) } }
    }

    /// The data of an item as stored, whatever the device state (not counted as a read).
    package func storedData(of item: KeychainItem) -> [UInt8]? {
        state.withLock { state in find(item, in: state).flatMap { state.items[$0]?.data } }
    }

    /// The accessibility an item was stored with.
    package func storedAccessibility(of item: KeychainItem) -> KeychainTokenStore.Accessibility? {
        state.withLock { state in find(item, in: state).flatMap { state.items[$0]?.accessibility } }
    }

    /// The accounts of the items of `service`, sorted.
    public func accounts(service: String) -> [String] {
        state.withLock { $0.items.keys.filter { $0.service == service }.map(\.account).sorted() }
    }

    /// Puts `data` in the item's place as another program could have (not counted, always allowed).
    package func plant(_ data: [UInt8], as item: KeychainItem, accessibility: KeychainTokenStore.Accessibility = .afterFirstUnlockThisDeviceOnly) {
        state.withLock { state in
            let key = find(item, in: state) ?? newKey(item)
            state.items[key] = Stored(data: data, accessibility: accessibility)
        }
    }

    /// The keychain operation, as the Security framework answers it.
    package func copyData(of item: KeychainItem) -> (status: KeychainStatus, data: [UInt8]?) {
        state.withLock { state in
            state.reads += 1
            if let failure = state.failure(.copy) { return (failure, nil) }
            if let refused = entitlementFailure(item) { return (refused, nil) }
            guard let key = find(item, in: state), let stored = state.items[key] else { return (.itemNotFound, nil) }
            guard Self.isAvailable(stored.accessibility, state.deviceState) else { return (.interactionNotAllowed, nil) }
            return (.success, stored.data)
        }
    }

    /// The keychain operation, as the Security framework answers it.
    package func add(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        state.withLock { state in
            if let failure = state.failure(.add) { return failure }
            if let refused = entitlementFailure(item) { return refused }
            if find(item, in: state) != nil { return .duplicateItem }
            guard Self.isAvailable(accessibility, state.deviceState) else { return .interactionNotAllowed }
            state.items[newKey(item)] = Stored(data: data, accessibility: accessibility)
            return .success
        }
    }

    /// The keychain operation, as the Security framework answers it.
    package func update(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        state.withLock { state in
            if let failure = state.failure(.update) { return failure }
            if let refused = entitlementFailure(item) { return refused }
            guard let key = find(item, in: state), let stored = state.items[key] else { return .itemNotFound }
            guard Self.isAvailable(stored.accessibility, state.deviceState),
                  Self.isAvailable(accessibility, state.deviceState) else { return .interactionNotAllowed }
            state.items[key] = Stored(data: data, accessibility: accessibility)
            return .success
        }
    }

    /// The keychain operation, as the Security framework answers it.
    package func delete(_ item: KeychainItem) -> KeychainStatus {
        state.withLock { state in
            if let failure = state.failure(.delete) { return failure }
            if let refused = entitlementFailure(item) { return refused }
            guard let key = find(item, in: state) else { return .itemNotFound }
            state.items[key] = nil
            return .success
        }
    }

    /// `missingEntitlement` for a data-protection item in a group the app is not entitled to.
    private func entitlementFailure(_ item: KeychainItem) -> KeychainStatus? {
        guard item.usesDataProtectionKeychain else { return nil }
        if let group = item.accessGroup, !entitledAccessGroups.contains(group) { return .missingEntitlement }
        if entitledAccessGroups.isEmpty { return .missingEntitlement }
        return nil
    }

    /// Where an added item goes: its group, else the default one (none in the legacy keychain).
    private func newKey(_ item: KeychainItem) -> Key {
        let group = item.usesDataProtectionKeychain ? item.accessGroup ?? entitledAccessGroups.first : nil
        return Key(dataProtection: item.usesDataProtectionKeychain, accessGroup: group, service: item.service, account: item.account)
    }

    /// The stored item a query matches: in its group, or in any entitled group when it names none.
    private func find(_ item: KeychainItem, in state: State) -> Key? {
        guard item.usesDataProtectionKeychain else {
            let key = Key(dataProtection: false, accessGroup: nil, service: item.service, account: item.account)
            return state.items[key] == nil ? nil : key
        }
        let groups = item.accessGroup.map { [$0] } ?? entitledAccessGroups
        return groups.lazy
            .map { Key(dataProtection: true, accessGroup: $0, service: item.service, account: item.account) }
            .first { state.items[$0] != nil }
    }

    /// Whether an item of this accessibility can be read or written in `deviceState`.
    private static func isAvailable(_ accessibility: KeychainTokenStore.Accessibility, _ deviceState: DeviceState) -> Bool {
        switch deviceState {
        case .unlocked: return true
        case .beforeFirstUnlock: return false
        case .locked:
            switch accessibility {
            case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: return true
            case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: return false
            }
        }
    }
}
