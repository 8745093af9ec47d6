import TokenStore

/// Runs an operation against a deadline without waiting for it past the deadline (a hang
/// that ignores cancellation must not hold the kit).
enum Deadline {
    /// The operation's value, or `nil` when `limit` passed first (the operation is then cancelled and left).
    static func run<Value: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async -> Value) async -> Value? {
        let pending = LockedValue<CheckedContinuation<Value?, Never>?>(nil)
        let timer = LockedValue<Task<Void, Never>?>(nil)
        func finish(_ value: Value?) -> Bool {
            let continuation = pending.withLock { stored -> CheckedContinuation<Value?, Never>? in
                defer { stored = nil }
                return stored
            }
            continuation?.resume(returning: value)
            return continuation != nil
        }
        return await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            let work = Task {
                let value = await operation()
                if finish(value) { timer.withLock { $0 }?.cancel() }
            }
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: limit)
                    if finish(nil) { work.cancel() }
                }
            }
        }
    }
}
