extension KeychainTokenStore {
    /// Which keychain of macOS holds the item (elsewhere there is only the data-protection one).
    public enum Keychain: Sendable {
        /// The data-protection keychain (`kSecUseDataProtectionKeychain`), the one iOS has:
        /// access groups work as on iOS and no other app is prompted for the login password.
        /// The program needs a keychain access group (a signed app or extension); an unsigned
        /// command-line tool gets ``TokenStoreError/Kind/keychain`` (`errSecMissingEntitlement`).
        case dataProtection
        /// The legacy file keychain of macOS (the login keychain), for a program that has no
        /// keychain entitlement. Access groups do not apply there, and another program reading
        /// the item makes macOS ask the user.
        case legacyFile
    }

    /// When the item's data can be read (`kSecAttrAccessible`); the `ThisDeviceOnly` ones are
    /// never restored to another device from a backup.
    public enum Accessibility: Sendable {
        /// After the first unlock since the device started, until it restarts; this device only. The default:
        /// a background refresh works while the device is locked.
        case afterFirstUnlockThisDeviceOnly
        /// After the first unlock since the device started; also restored to a new device.
        case afterFirstUnlock
        /// Only while the device is unlocked; this device only.
        case whenUnlockedThisDeviceOnly
        /// Only while the device is unlocked; also restored to a new device.
        case whenUnlocked
        /// Only while the device is unlocked and has a passcode; this device only, deleted when the passcode is removed.
        case whenPasscodeSetThisDeviceOnly
    }

    /// How a Keychain store keeps its item and waits for other processes.
    public struct Options: Sendable {
        /// Which keychain holds the item; ``Keychain/dataProtection`` by default.
        public var keychain: Keychain
        /// When the item can be read; ``Accessibility/afterFirstUnlockThisDeviceOnly`` by default.
        public var accessibility: Accessibility
        /// How long to wait for another process's exclusive section (with a lock file) before
        /// ``TokenStoreError/Kind/lockFailed``; `nil` waits as long as it takes. Two minutes by default.
        public var lockTimeout: Duration?
        /// Keeps the process from being suspended while it holds the exclusive section (see
        /// ``BackgroundActivity``); `nil` by default. Pass `.expiringActivity()` (Apple platforms)
        /// when an app and its extensions share the store through an App Group.
        public var backgroundActivity: BackgroundActivity?

        /// Creates options; every argument has the default described on its property.
        public init(
            keychain: Keychain = .dataProtection,
            accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
            lockTimeout: Duration? = .seconds(120),
            backgroundActivity: BackgroundActivity? = nil
        ) {
            self.keychain = keychain
            self.accessibility = accessibility
            self.lockTimeout = lockTimeout
            self.backgroundActivity = backgroundActivity
        }
    }
}
