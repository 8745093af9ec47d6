/// A first-come-first-served lock for async code.
///
/// The server has one SQLite connection; a transaction spans several awaited statements, so
/// transactions must not interleave. Waiting does not block a thread.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while holding the lock.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        if !isLocked {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            // Hand the lock straight to the next waiter: it stays locked.
            waiters.removeFirst().resume()
        }
    }
}
