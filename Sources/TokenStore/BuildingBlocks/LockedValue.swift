import Foundation

/// A value guarded by a lock, for the few bits of mutable state that synchronous code must
/// reach from any thread: a store's cache or key, a session's state, a list of waiters.
/// Public so that store authors use this one type instead of writing their own.
///
/// ```swift
/// let migrated = LockedValue(false)
/// let firstTime = migrated.withLock { done in defer { done = true }; return !done }
/// ```
///
/// `@unchecked Sendable` is safe here: `value` is private and only read or written inside
/// `lock.withLock`, so no two threads touch it at once, and `Value: Sendable` means what
/// leaves the lock may cross threads. (`Synchronization.Mutex` would do the same, but needs
/// macOS 15 / iOS 18, newer than this package's minimum platforms.)
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the lock holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns. `body`
    /// must not block, suspend or take this lock again (the lock is not reentrant).
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
