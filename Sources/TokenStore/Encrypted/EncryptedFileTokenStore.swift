#if EncryptedTokenStore
public import Foundation

/// Keeps credentials in a file encrypted with libsodium's XChaCha20-Poly1305, under a key
/// from a passphrase (Argon2id), a key file, or raw key bytes you supply.
///
/// It follows the same file discipline as ``FileTokenStore`` (0600 file in a 0700 folder,
/// atomic replace, `flock` beside the file for ``withExclusiveAccess(_:)``, unreadable files
/// refused and later moved aside, never overwritten) and adds:
/// - a fresh random nonce for every save, and the versioned header (magic, format version,
///   key derivation and its parameters, salt) as associated data, so that any modified byte
///   makes ``load()`` fail with ``TokenStoreError/Kind/decryptionFailed`` — see
///   `EncryptedFileFormat` in the source for the byte layout;
/// - key material held in `sodium_malloc` memory and wiped with `sodium_memzero` when the
///   store goes away.
///
/// Opening is `async` because a passphrase goes through Argon2id once, here, and never per
/// read: about 0.15 s and 64 MiB of memory with the default ``KeyDerivation/interactive``
/// parameters. Keep one store per process rather than opening one per call.
///
/// ```swift
/// let store = try await EncryptedFileTokenStore(
///     fileURL: URL(fileURLWithPath: "/home/me/.config/app/tokens.enc"),
///     key: .passphrase(passphraseFromPrompt)
/// )
/// try await store.save(credentials)
/// ```
///
/// With a passphrase, the salt and Argon2id parameters of an existing file are used (they
/// are in its header); a new file gets a random salt and the parameters you pass. When
/// another process recreates the file with another salt, the next read derives the key for
/// it once and keeps using it. So the store keeps the passphrase, in wiped memory, for its
/// lifetime.
public final class EncryptedFileTokenStore: TokenStore, CustomStringConvertible {
    /// The encrypted file.
    public let fileURL: URL
    /// The options the store was opened with.
    public let options: FileTokenStore.Options

    private let core: FileStoreCore<EncryptedFileCodec>
    private let keyDescription: String

    /// Opens a store for the encrypted file at `fileURL`, obtaining the key. The file itself
    /// is not read for credentials (or created) until it is used; a wrong passphrase or key
    /// shows up as ``TokenStoreError/Kind/decryptionFailed`` from ``load()``.
    ///
    /// - Parameters:
    ///   - fileURL: The encrypted file; it and its folder are created on the first save.
    ///   - key: Where the 32-byte key comes from. A passphrase is stretched with Argon2id
    ///     here (slow on purpose); a missing key file is created with 32 random bytes, mode 0600.
    ///   - options: Permission and locking behaviour (also applied to a key file's permissions).
    /// - Throws: ``TokenStoreError`` with kind ``TokenStoreError/Kind/invalidKey`` (empty
    ///   passphrase, raw key or key file not 32 bytes, parameters out of range, libsodium
    ///   failure), ``TokenStoreError/Kind/insecurePermissions`` (a key file others can read)
    ///   or ``TokenStoreError/Kind/io``.
    public init(fileURL: URL, key: KeySource, options: FileTokenStore.Options = FileTokenStore.Options()) async throws(TokenStoreError) {
        let file = StoreFile(fileURL: fileURL, options: options)
        self.fileURL = fileURL
        self.options = options
        self.keyDescription = key.description
        let codec = try await EncryptedFileCodec.make(
            key: key, path: file.path, allowsInsecurePermissions: options.allowsInsecurePermissions,
            existingBytes: { (try? file.read()).flatMap { $0 } }
        )
        core = FileStoreCore(file: file, codec: codec)
    }

    /// Reads and decrypts the credentials; `nil` when the file does not exist.
    /// - Throws: ``TokenStoreError``: ``TokenStoreError/Kind/decryptionFailed`` for a wrong key
    ///   or passphrase or a modified file; ``TokenStoreError/Kind/unreadable`` for an empty,
    ///   truncated or foreign file; ``TokenStoreError/Kind/unsupportedFormatVersion``;
    ///   ``TokenStoreError/Kind/insecurePermissions``. The file is left as it is.
    public func load() async throws(TokenStoreError) -> Credentials? { try await core.load() }

    /// Encrypts the credentials with a fresh nonce and replaces the file atomically. An
    /// existing file that cannot be loaded (including one under another key) is first
    /// moved aside to `<name>.unreadable-<timestamp>`.
    public func save(_ credentials: Credentials) async throws(TokenStoreError) { try await core.save(credentials) }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    public func clear() async throws(TokenStoreError) { try await core.clear() }

    /// Moves the file aside when it exists and cannot be loaded, inside the exclusive section,
    /// and returns where it went (`<name>.unreadable-<UTC timestamp>` beside it, with its
    /// contents and mode, never deleted); `nil` when there is no file or it loads. As for
    /// ``FileTokenStore/moveAsideIfUnreadable()``, and a file that does not decrypt
    /// (``TokenStoreError/Kind/decryptionFailed``) is moved too: this store cannot tell a wrong
    /// key or passphrase from a modified file, so call it for such a file only when the key is
    /// known to be right or the user asked for it.
    /// - Throws: ``TokenStoreError`` when the file cannot be read at all or the section cannot be entered.
    public func moveAsideIfUnreadable() async throws(TokenStoreError) -> URL? {
        try await core.moveAsideIfUnreadable().map { URL(fileURLWithPath: $0) }
    }

    /// Runs `body` inside the store's exclusive section, exactly as
    /// ``FileTokenStore/withExclusiveAccess(_:)`` does: the in-process lock and `flock` on `<file>.lock`.
    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await core.withExclusiveAccess(body)
    }

    /// How many keys this store derived for files another process wrote with another salt.
    package var keyDerivationCount: Int { core.codec.derivationCount.withLock { $0 } }

    /// `EncryptedFileTokenStore(<path>, key: <kind of key>)`; never key material.
    public var description: String { "EncryptedFileTokenStore(\(core.file.path), key: \(keyDescription))" }
}
#endif
