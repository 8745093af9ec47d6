import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `flock` on a lock file. Taken at once when it is free; otherwise waited for on a thread
/// of its own, blocked in `flock(LOCK_EX)` until the holder releases it: no polling, and the
/// waiter wakes as soon as the lock is free (``FlockWait``). The in-process ``AsyncLock`` in
/// front of it (``SectionLock``) keeps that to one waiting thread per lock file and process.
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
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                close(fd)
                throw TokenStoreError(kind: .lockFailed, path: path, reason: "cannot lock the lock file", errorNumber: code)
            }
            break
        }
        // Held by another process (or another open file description): wait blocked.
        try await FlockWait(fd: fd, path: path).wait(timeout: timeout, cancellable: cancellable)
        return fd
    }

    /// Releases a lock that ``acquire(path:folder:timeout:cancellable:)`` took: closing the
    /// descriptor releases the `flock`.
    static func release(_ fd: Int32) {
        close(fd)
    }
}
