import Foundation

/// A first-in, first-out lock for async code: waiting suspends the task instead of
/// blocking a thread. Not reentrant (``ExclusiveSection`` handles nesting).
///
/// The in-process half of a store's exclusive section: tasks of this process wait here,
/// suspended, before one of them takes the cross-process lock (a lock file, a database's
/// advisory lock), so that only one task per process holds a connection or polls.
///
/// ```swift
/// let processLock = AsyncLock()
/// try await processLock.lock(cancellable: true)
/// defer { processLock.unlock() }
/// ```
///
/// `@unchecked Sendable` is safe here: the mutable state (`isLocked`, `waiters`, `nextID`)
/// is private and only touched inside `mutex.withLock`; continuations are resumed after
/// the mutex is released, exactly once each (a waiter is removed from `waiters` under the
/// mutex by whoever resumes it, either `unlock()` or the cancellation handler).
public final class AsyncLock: @unchecked Sendable {
    private let mutex = NSLock()
    private var isLocked = false
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// Creates an unlocked lock.
    public init() {}

    /// Waits for the lock and takes it; every `lock` must be paired with one ``unlock()``.
    /// - Parameter cancellable: When `true`, cancelling the waiting task stops the wait
    ///   with `CancellationError`; when `false`, the wait ignores cancellation (used by
    ///   `save` and `clear`, which must finish what they started).
    /// - Throws: `CancellationError` only, and only when `cancellable`.
    public func lock(cancellable: Bool) async throws {
        let id = mutex.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case acquired, cancelled, waiting }
                let outcome: Outcome = mutex.withLock {
                    if !isLocked {
                        isLocked = true
                        return .acquired
                    }
                    if cancellable && Task.isCancelled { return .cancelled }
                    waiters.append((id, continuation))
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
            let waiter = mutex.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Releases the lock, handing it straight to the longest waiter if there is one.
    public func unlock() {
        let next = mutex.withLock { () -> CheckedContinuation<Void, any Error>? in
            if waiters.isEmpty {
                isLocked = false
                return nil
            }
            return waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
