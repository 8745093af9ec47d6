import Foundation

/// The tests' lock around shared state: the API of `Synchronization.Mutex` (`withLock` over an
/// `inout sending` value) on an `NSLock`. ThreadSanitizer (`scripts/sanitize`) sees an
/// `NSLock`, a pthread mutex it intercepts, but not a `Mutex`, whose Linux implementation
/// waits on a futex of its own: every access made inside a `Mutex` from two threads was
/// reported as a race, which would hide a real one.
///
/// `@unchecked Sendable` is safe here for the reasons `Mutex` is `Sendable`: `value` is private
/// and only read or written inside `lock.withLock`, so no two threads touch it at once; it
/// comes in as `sending` and leaves only as a `sending` result, so no value reachable from it
/// is shared with another thread outside the lock.
final class TestMutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the lock holding `value`.
    init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns. `body`
    /// must not take this lock again (it is not reentrant).
    func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
