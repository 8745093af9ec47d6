import Foundation

/// A value guarded by a lock, for the few bits of mutable state the stores keep.
///
/// `@unchecked Sendable` is safe here: `value` is private and only read or written inside
/// `lock.withLock`, so no two threads touch it at once, and `Value: Sendable` means what
/// leaves the lock may cross threads.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not block or suspend.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
