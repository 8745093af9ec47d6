/// A first-in, first-out lock for async code, one per store: tasks using the store wait here
/// (suspended, no connection held) rather than each holding a connection that polls
/// PostgreSQL. Not reentrant (``SectionHold`` handles nesting).
final class ProcessLock: Sendable {
    private struct State {
        var isLocked = false
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Waits for the lock and takes it.
    /// - Parameter cancellable: Whether cancelling the task stops the wait (`CancellationError`).
    func lock(cancellable: Bool) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case acquired, cancelled, waiting }
                let outcome: Outcome = state.withLock { state in
                    if !state.isLocked {
                        state.isLocked = true
                        return .acquired
                    }
                    if cancellable && Task.isCancelled { return .cancelled }
                    state.waiters.append((id, continuation))
                    return .waiting
                }
                switch outcome {
                case .acquired: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            guard cancellable else { return }
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Releases the lock, handing it to the longest waiter if there is one.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.isLocked = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
