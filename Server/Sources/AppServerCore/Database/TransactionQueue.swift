/// The queue ``Database`` runs its transactions through: one at a time, first come first served.
///
/// The server has one SQLite connection; a transaction spans several awaited statements, so
/// transactions must not interleave. A transaction waits its turn without blocking a thread.
actor TransactionQueue {
    private var isBusy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every transaction queued before it has finished; the next one waits for it.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
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
        if !isBusy {
            isBusy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            isBusy = false
        } else {
            // Hand the turn straight to the next waiter: the queue stays busy.
            waiters.removeFirst().resume()
        }
    }
}
