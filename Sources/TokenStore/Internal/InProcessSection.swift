/// An exclusive section that holds within one process: an ``AsyncLock`` and a key of its
/// own, so that nested sections of the same task tree run directly (see
/// ``ExclusiveSection``). The section of ``InMemoryTokenStore`` (a Keychain store without a
/// lock file shares one lock per item across the process instead: ``KeychainSection``).
struct InProcessSection: Sendable {
    private let lock = AsyncLock()
    private let key: String

    /// A new section, unrelated to every other one; `kind` names it in its key (`memory`).
    init(kind: String) {
        key = kind + ":" + Posix.randomHex()
    }

    /// Runs `body` in the section; cancelling the task stops the wait with `CancellationError`.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        let lock = self.lock
        return try await ExclusiveSection.run(
            key: key,
            acquire: { () async throws -> @Sendable () -> Void in
                try await lock.lock(cancellable: true)
                return { lock.unlock() }
            },
            body: body
        )
    }
}
