import Foundation

/// A value guarded by a lock, for the few bits of mutable state that synchronous code must
/// reach from any thread: the stores' caches and keys, the session's event subscribers and
/// waiters. Package-visible so that every module of the SDK uses this one type.
///
/// `@unchecked Sendable` is safe here: `value` is private and only read or written inside
/// `lock.withLock`, so no two threads touch it at once, and `Value: Sendable` means what
/// leaves the lock may cross threads. (`Synchronization.Mutex` would do the same, but needs
/// macOS 15 / iOS 18, newer than this package's minimum platforms.)
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the lock holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not block or suspend.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
