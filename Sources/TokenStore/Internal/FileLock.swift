import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `flock` on a lock file, waited for without blocking a thread: the lock is tried
/// with `LOCK_NB` and the task sleeps between tries (1 ms growing to 10 ms).
enum FileLock {
    /// Opens (creating, 0600) the lock file and takes an exclusive `flock` on it.
    /// Returns the descriptor; closing it releases the lock.
    /// - Parameters:
    ///   - timeout: Give up with ``TokenStoreError/Kind/lockFailed`` after this long; `nil` waits as long as it takes.
    ///   - cancellable: Whether cancellation stops the wait (with `CancellationError`).
    static func acquire(path: String, folder: String, timeout: Duration?, cancellable: Bool) async throws -> Int32 {
        try Posix.makeFolder(folder)
        guard let fd = try Posix.openFile(path, O_RDWR | O_CREAT, mode: 0o600, purpose: "as the lock file") else {
            throw TokenStoreError(kind: .lockFailed, path: path, reason: "cannot open the lock file")
        }
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var delay: Duration = .milliseconds(1)
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN || code == EINTR else {
                close(fd)
                throw TokenStoreError(kind: .lockFailed, path: path, reason: "cannot lock the lock file", errorNumber: code)
            }
            if code == EINTR { continue }
            if let deadline, let timeout, clock.now >= deadline {
                close(fd)
                throw TokenStoreError(
                    kind: .lockFailed, path: path,
                    reason: "another process held the lock for longer than the timeout (\(timeout))"
                )
            }
            do {
                try await sleep(for: delay, cancellable: cancellable)
            } catch {
                close(fd)
                throw error
            }
            delay = min(delay * 2, .milliseconds(10))
        }
    }

    /// Releases a lock that ``acquire(path:folder:timeout:cancellable:)`` took: closing the
    /// descriptor releases the `flock`.
    static func release(_ fd: Int32) {
        close(fd)
    }

    private static func sleep(for delay: Duration, cancellable: Bool) async throws {
        let jittered = delay + .microseconds(Int.random(in: 0...500))
        if cancellable {
            try await Task.sleep(for: jittered)
        } else {
            // Task.sleep returns at once in a cancelled task; this wait does not.
            let (seconds, attoseconds) = jittered.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                    continuation.resume()
                }
            }
        }
    }
}
