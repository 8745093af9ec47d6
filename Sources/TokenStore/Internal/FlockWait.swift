import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One wait for `flock(fd, LOCK_EX)` on a thread of its own, which the kernel wakes when the
/// lock is free: no polling.
///
/// The wait can be given up (the task cancelled, the timeout passed) while the thread stays
/// blocked in `flock`, which nothing interrupts: the caller is answered at once, and the
/// thread, once it gets the lock, closes the descriptor, which releases it. Until then the
/// descriptor belongs to the thread; after a successful wait, to the caller.
final class FlockWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        /// The caller was answered (lock taken, failure, cancellation or timeout).
        var answered = false
        /// The caller gave up: the thread must release the lock once it has it.
        var abandoned = false
    }

    private let fd: Int32
    private let path: String
    private let state = LockedValue(State())

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Waits until the lock is taken. On any error the descriptor is no longer the caller's.
    /// - Throws: ``TokenStoreError/Kind/lockFailed`` after `timeout` or when `flock` fails;
    ///   `CancellationError` when `cancellable` and the task is cancelled.
    func wait(timeout: Duration?, cancellable: Bool) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelledAlready = state.withLock { state -> Bool in
                    if state.answered { return true }
                    state.continuation = continuation
                    return false
                }
                if cancelledAlready {
                    // Given up before the wait began: nothing holds the descriptor but us.
                    close(fd)
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let thread = Thread { [self] in block() }
                thread.stackSize = 64 * 1024
                thread.start()
                if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                        giveUp(TokenStoreError(kind: .lockFailed, path: path,
                                               reason: "another process held the lock for longer than the timeout (\(timeout))"))
                    }
                }
            }
        } onCancel: {
            if cancellable { giveUp(CancellationError()) }
        }
    }

    /// The thread's body: blocks in `flock` until the lock is taken (or `flock` fails), then
    /// answers the caller, or releases the lock when the caller gave up.
    private func block() {
        #if os(Linux)
        // Named, for `top -H` and the tests (Glibc's module does not show pthread_setname_np).
        let comm = open("/proc/thread-self/comm", O_WRONLY)
        if comm >= 0 {
            _ = "flock-wait".withCString { write(comm, $0, 10) }
            close(comm)
        }
        #endif
        var result: Int32
        var code: Int32 = 0
        repeat {
            result = flock(fd, LOCK_EX)
            if result != 0 { code = errno }
        } while result != 0 && code == EINTR
        let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Bool) in
            guard !state.answered else { return (nil, true) }
            state.answered = true
            defer { state.continuation = nil }
            return (state.continuation, false)
        }
        if abandoned || result != 0 {
            close(fd)  // releases the lock, if it was taken
        }
        guard let continuation else { return }
        if result == 0 {
            continuation.resume()
        } else {
            continuation.resume(throwing: TokenStoreError(kind: .lockFailed, path: path, reason: "cannot lock the lock file", errorNumber: code))
        }
    }

    /// Answers the caller with `error` unless it was answered already; the thread then
    /// releases the lock once it has it.
    private func giveUp(_ error: any Error) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.answered else { return nil }
            state.answered = true
            state.abandoned = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: error)
    }
}
