import Foundation

/// A value behind a lock, for state that synchronous code must reach from any thread
/// (event subscribers registered from `events()`, which is not `async`).
///
/// `@unchecked Sendable` is safe here: `value` is private and only read or written inside
/// `withLock`, which holds `lock` for the whole access, and `Value` is itself `Sendable`, so
/// nothing that escapes the lock can be raced on. (`Synchronization.Mutex` would do the
/// same, but needs macOS 15 / iOS 18, newer than this package's minimum platforms.)
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
