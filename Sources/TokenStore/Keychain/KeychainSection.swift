import Foundation

/// The exclusive section of a ``KeychainTokenStore``: `flock` on a lock file (shared by the
/// processes that share the item, such as an app and its extensions) or, without one, a lock
/// shared by every store of this process on the same item; held inside the store's
/// ``KeychainTokenStore/BackgroundActivity`` when it has one.
struct KeychainSection: Sendable {
    /// What holds the section.
    enum Lock: Sendable {
        /// `flock` on a lock file, plus the in-process lock of that file.
        case file(SectionLock)
        /// An in-process lock shared by the stores of this process on one item.
        case process(AsyncLock)
        /// The lock file cannot be had (an App Group without a container): every section fails so.
        case unavailable(TokenStoreError)
    }

    let lock: Lock
    /// Identifies the section, so that nested sections run directly.
    let key: String
    let activity: KeychainTokenStore.BackgroundActivity?
    /// Names the store in errors.
    let label: String

    /// The section on `lockFile`, or on the process-wide lock of `item` when there is no lock file.
    init(lockFile: Result<URL, TokenStoreError>?, item: KeychainItem, options: KeychainTokenStore.Options, label: String) {
        switch lockFile {
        case .success(let url):
            let section = SectionLock(lockFileURL: url, timeout: options.lockTimeout)
            lock = .file(section)
            key = section.key
        case .failure(let error):
            lock = .unavailable(error)
            key = "keychain-unavailable:" + Posix.randomHex()
        case nil:
            key = "keychain:\(item.usesDataProtectionKeychain):\(item.accessGroup ?? "")/\(item.service)/\(item.account)"
            lock = .process(Self.processLock(for: key))
        }
        activity = options.backgroundActivity
        self.label = label
    }

    /// Runs the caller's `body` in the section. When the activity's time is up, `body` is
    /// cancelled and the section ends as soon as it returns; a `CancellationError` it then
    /// throws becomes ``TokenStoreError/Kind/unavailable``.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if ExclusiveSection.isHeld(key) { return try await body() }
        guard let activity else { return try await enter(cancellable: true, body) }
        let expiry = SectionExpiry()
        let end = activity.begin { expiry.expire() }
        defer { end() }
        let result: Result<T, any Error> = await withoutActuallyEscaping(body) { body in
            await withTaskGroup(of: Outcome<T>.self) { group in
                group.addTask {
                    await .finished(Self.capture {
                        try await enter(cancellable: true) {
                            // Never start the work once time is up.
                            if expiry.hasExpired { throw CancellationError() }
                            return try await body()
                        }
                    })
                }
                group.addTask {
                    await expiry.wait()
                    return .expired
                }
                while let outcome = await group.next() {
                    switch outcome {
                    case .finished(let result):
                        group.cancelAll()
                        return result
                    case .expired:
                        if expiry.hasExpired { group.cancelAll() }
                    }
                }
                return .failure(CancellationError())  // unreachable: the work always finishes
            }
        }
        if case .failure(let error) = result, error is CancellationError, expiry.hasExpired {
            throw TokenStoreError(
                kind: .unavailable, path: label,
                reason: "the system ended the app's background time while the exclusive section was "
                    + "waited for or held; its work was stopped and the section left: try again"
            )
        }
        return try result.get()
    }

    /// Runs the store's own `body` (a save or a clear) in the section; waiting ignores
    /// cancellation, and time up does not stop it, so that what started also finishes.
    func run<T>(_ body: () async throws(TokenStoreError) -> T) async throws(TokenStoreError) -> T {
        if ExclusiveSection.isHeld(key) { return try await body() }
        let end = activity?.begin { }
        defer { end?() }
        switch lock {
        case .file(let section):
            return try await section.run(body)
        case .process(let lock):
            return try await ExclusiveSection.run(
                key: key,
                acquire: { () async throws(TokenStoreError) -> @Sendable () -> Void in
                    try? await lock.lock(cancellable: false)  // throws only when cancellable
                    return { lock.unlock() }
                },
                body: body
            )
        case .unavailable(let error):
            throw error
        }
    }

    private enum Outcome<T: Sendable>: Sendable {
        case finished(Result<T, any Error>)
        case expired
    }

    private static func capture<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    private func enter<T>(cancellable: Bool, _ body: () async throws -> T) async throws -> T {
        switch lock {
        case .file(let section):
            return try await section.run(cancellable: cancellable, body)
        case .process(let lock):
            return try await ExclusiveSection.run(
                key: key,
                acquire: { () async throws -> @Sendable () -> Void in
                    try await lock.lock(cancellable: cancellable)
                    return { lock.unlock() }
                },
                body: body
            )
        case .unavailable(let error):
            throw error
        }
    }

    /// One lock per item for the stores of this process without a lock file. Entries are never
    /// removed (one small object per item the process uses).
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
