/// Where a session's ``Credentials`` live between calls, restarts and processes.
///
/// Pick the store by where the credentials must survive:
/// - ``InMemoryTokenStore``: tests and short-lived tools; gone when the process ends.
/// - ``FileTokenStore``: a JSON file (0600 in a 0700 folder); readable by anyone who can read the file.
/// - `EncryptedFileTokenStore`: the same file discipline, encrypted with libsodium
///   (XChaCha20-Poly1305) under a key from a passphrase, a key file or raw key bytes.
/// - ``KeychainTokenStore``: the Keychain on Apple platforms; with an App Group, shared safely
///   by an app and its extensions.
///
/// Every store is safe to share between tasks, and the file stores between processes:
/// ``withExclusiveAccess(_:)`` holds across processes, so a token refresh done inside it
/// (re-reading the store first) happens once even when several programs share one file.
///
/// ## Writing a store
///
/// The session engine relies on this contract; a store of your own (a database, a keychain
/// of another platform) must keep all of it.
///
/// What a store must do:
/// - ``load()`` returns `nil` when nothing is stored, never an error for that.
/// - ``save(_:)`` replaces the credentials atomically: a reader sees the old or the new ones,
///   never a mix, even if the process dies mid-save. When it returns, the credentials are
///   durable: the engine hands a rotated access token to callers only after `save` returned,
///   because the server has already retired the previous refresh token.
/// - ``withExclusiveAccess(_:)`` holds against every task of this process *and* every other
///   process or machine sharing the store, for as long as `body` runs; ``load()``,
///   ``save(_:)`` and ``clear()`` work inside it, and a nested call from the same task tree runs
///   `body` directly. The building blocks: ``AsyncLock`` (this process's tasks wait suspended,
///   in order), ``ExclusiveSection`` (re-entrancy and the resource held inside) and
///   ``LockedValue`` (small synchronous state).
/// - Every failure is a ``TokenStoreError`` whose ``TokenStoreError/kind`` tells the engine
///   what to do: ``TokenStoreError/isTransient`` for a backend that may come back
///   (``TokenStoreError/Kind/unavailable``), ``TokenStoreError/Kind/readOnly`` for one that can
///   be read but not written, ``TokenStoreError/Kind/lockFailed`` for a section not had in
///   time. A failed ``save(_:)`` or ``clear()`` leaves the stored credentials as they were.
///
/// What a store must never do:
/// - Overwrite or delete stored data it cannot read (truncated, modified, a wrong key): that
///   is a ``TokenStoreError`` naming the place and the cause. A later ``save(_:)`` or
///   ``clear()`` moves it aside (kept, not deleted); the file stores'
///   `moveAsideIfUnreadable()` does only that, and says where the file went.
/// - Put a token, a password or a key in an error, a description or a log line.
/// - Cache across processes: ``load()`` inside the exclusive section must see what another
///   process saved, since that re-read is what makes a refresh happen once between them.
/// - Deadlock on itself: a nested ``withExclusiveAccess(_:)`` from inside `body` (the engine
///   loads and saves inside its refresh's section) must run directly, which
///   ``ExclusiveSection`` does for the task tree that entered the section, and for it only.
public protocol TokenStore: Sendable {
    /// Reads the stored credentials; `nil` when none are stored.
    func load() async throws(TokenStoreError) -> Credentials?

    /// Replaces the stored credentials atomically: afterwards a reader sees either
    /// the old or the new credentials, never a mix, even if the process dies mid-save.
    func save(_ credentials: Credentials) async throws(TokenStoreError)

    /// Removes the stored credentials.
    func clear() async throws(TokenStoreError)

    /// Runs `body` while holding the store's exclusive section: no other task of this
    /// process and no other process using the same store runs an exclusive section at
    /// the same time. ``load()`` and ``save(_:)`` may be called inside it. Nested calls
    /// from inside `body` (the same task tree) run directly instead of deadlocking.
    func withExclusiveAccess<T: Sendable>(
        _ body: @Sendable () async throws -> T
    ) async throws -> T
}
