/// Where a session's ``Credentials`` live between calls, restarts and processes.
///
/// Pick the store by where the credentials must survive:
/// - ``InMemoryTokenStore``: tests and short-lived tools; gone when the process ends.
/// - ``FileTokenStore``: a JSON file (0600 in a 0700 folder); readable by anyone who can read the file.
/// - `EncryptedFileTokenStore`: the same file discipline, encrypted with libsodium
///   (XChaCha20-Poly1305) under a key from a passphrase, a key file or raw key bytes.
///
/// Every store is safe to share between tasks, and the file stores between processes:
/// ``withExclusiveAccess(_:)`` holds across processes, so a token refresh done inside it
/// (re-reading the store first) happens once even when several programs share one file.
///
/// Failure rules every store follows:
/// - No stored credentials is `nil` from ``load()``, not an error.
/// - Stored data that cannot be read (truncated, modified, wrong key) is a ``TokenStoreError``
///   naming the file and the cause; the store never overwrites it on its own. A later
///   ``save(_:)`` or ``clear()`` moves the unreadable file aside (kept, not deleted); the file
///   stores' `moveAsideIfUnreadable()` does only that, and says where the file went.
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
