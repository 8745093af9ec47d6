import Foundation

/// A value behind a lock, for the few bits of state synchronous code reaches from any thread.
///
/// `@unchecked Sendable` is safe: `value` is private and only touched inside `lock.withLock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access; `body` must not block or suspend.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
