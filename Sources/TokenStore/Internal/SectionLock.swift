import Foundation

/// An exclusive section that holds across tasks and processes: an in-process ``AsyncLock``
/// (one per lock file, shared by every store instance of this process that uses it, so
/// that waiting tasks suspend instead of polling) plus `flock` on the lock file (so that
/// other processes wait). Nested sections of the same task tree run directly (see
/// ``ExclusiveSection``).
///
/// The lock file is created (0600, its folder 0700) on first use and never deleted:
/// deleting it would let two processes lock two different files.
struct SectionLock: Sendable {
    /// The lock file.
    let lockPath: String
    /// Its folder.
    let folder: String
    /// Identifies the section: the lock file's path with symbolic links resolved.
    let key: String
    /// How long to wait for another process; `nil` waits as long as it takes.
    let timeout: Duration?

    init(lockFileURL: URL, timeout: Duration?) {
        let url = lockFileURL.standardizedFileURL
        lockPath = url.path
        folder = url.deletingLastPathComponent().path
        key = "file:" + url.resolvingSymlinksInPath().path
        self.timeout = timeout
    }

    /// Runs `body` inside the section.
    /// - Parameter cancellable: Whether cancelling the task stops the wait for the lock (with `CancellationError`).
    func run<T>(cancellable: Bool, _ body: () async throws -> T) async throws -> T {
        try await ExclusiveSection.run(
            key: key,
            acquire: { () async throws -> @Sendable () -> Void in try await lock(cancellable: cancellable) },
            body: body
        )
    }

    /// Runs a store's own typed-throwing work inside the section; waiting ignores cancellation,
    /// so a save that started also finishes.
    func run<T>(_ body: () async throws(TokenStoreError) -> T) async throws(TokenStoreError) -> T {
        try await ExclusiveSection.run(
            key: key,
            acquire: { () async throws(TokenStoreError) -> @Sendable () -> Void in
                do {
                    return try await lock(cancellable: false)
                } catch let error as TokenStoreError {
                    throw error
                } catch {
                    throw TokenStoreError(kind: .lockFailed, path: lockPath, reason: "could not wait for the lock (\(type(of: error)))")
                }
            },
            body: body
        )
    }

    /// Takes the in-process lock, then `flock` on the lock file; returns the release function.
    private func lock(cancellable: Bool) async throws -> @Sendable () -> Void {
        let processLock = Self.processLock(for: key)
        try await processLock.lock(cancellable: cancellable)
        do {
            let fd = try await FileLock.acquire(path: lockPath, folder: folder, timeout: timeout, cancellable: cancellable)
            return {
                FileLock.release(fd)
                processLock.unlock()
            }
        } catch {
            processLock.unlock()
            throw error
        }
    }

    /// One in-process lock per lock file. Entries are never removed (one small object per
    /// distinct lock file the process uses).
    private static let processLocks = LockedValue<[String: AsyncLock]>([:])

    private static func processLock(for key: String) -> AsyncLock {
        processLocks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = AsyncLock()
            locks[key] = lock
            return lock
        }
    }
}
