public import Foundation

/// Keeps credentials in a JSON file that several processes can share.
///
/// The file is created with mode 0600 (its folder, when the store creates it, 0700) and
/// replaced atomically on every save: a temporary file in the same folder is written and
/// flushed, renamed over the file, and the folder is flushed, so a reader or a process
/// started after a crash sees the old or the new credentials, never a mix.
///
/// The tokens are in clear text: anyone who can read the file can use them. Prefer
/// `EncryptedFileTokenStore` when the file might be copied or backed up.
///
/// ```swift
/// let store = FileTokenStore(fileURL: URL(fileURLWithPath: "/home/me/.config/app/tokens.json"))
/// try await store.save(credentials)
/// let restored = try await store.load()   // nil when nothing was saved
/// ```
///
/// Files beside it: `tokens.json.lock` (the lock file for ``withExclusiveAccess(_:)``; never
/// deleted), `.tokens.json.tmp-…` while a save is under way, and
/// `tokens.json.unreadable-<UTC timestamp>` (e.g. `tokens.json.unreadable-20261122T040923Z`) when a save or
/// clear found an unreadable file and moved it aside.
///
/// A symbolic link in the file's place is followed: the store reads and atomically replaces
/// the link's target (its temporary and lock files sit beside the target), so the link stays a
/// link. A FIFO, a folder or anything else that is not a regular file is refused at once.
///
/// A load answers from the credentials it decoded last while the file is unchanged. Inside
/// ``withExclusiveAccess(_:)`` it checks the file (one `stat`) every time, so a save by any
/// process is seen there at once; outside it, the last check is trusted for
/// ``Options/changeCheckInterval`` (100 ms by default) unless a store of this process wrote
/// the file since, so a call's load of its token costs no system call.
///
/// Loading, saving and clearing do blocking file I/O (a few small reads and writes, two
/// `fsync` calls per save) on the calling task.
public final class FileTokenStore: TokenStore, CustomStringConvertible {
    /// How a file store treats permissions and waits for other processes.
    public struct Options: Sendable {
        /// Read files (and key files) that group or others can access instead of refusing
        /// them with ``TokenStoreError/Kind/insecurePermissions``. Off by default.
        public var allowsInsecurePermissions: Bool
        /// How long to wait for the exclusive section while another process holds it before
        /// failing with ``TokenStoreError/Kind/lockFailed``; `nil` waits as long as it takes. Default two minutes.
        public var lockTimeout: Duration?
        /// How long a load outside ``withExclusiveAccess(_:)`` trusts its last look at the file
        /// (one `stat`) when no store of this process has written the file since. Within it a
        /// load costs no system call, and another process's save, sign-out or tampering shows
        /// at most this late; loads inside the exclusive section (every refresh, save and
        /// clear) always look. `.zero` looks at every load. Default 100 milliseconds.
        public var changeCheckInterval: Duration

        /// Creates options.
        /// - Parameters:
        ///   - allowsInsecurePermissions: Read files that group or others can access. Off by default.
        ///   - lockTimeout: The longest wait for another process's exclusive section before
        ///     ``TokenStoreError/Kind/lockFailed``; `nil` waits as long as it takes. The default,
        ///     two minutes, outlasts any refresh but not a process that was stopped (Ctrl-Z)
        ///     while holding the section.
        ///   - changeCheckInterval: How long a load outside the exclusive section trusts its
        ///     last look at the file; `.zero` looks every time. Default 100 milliseconds.
        public init(
            allowsInsecurePermissions: Bool = false, lockTimeout: Duration? = .seconds(120),
            changeCheckInterval: Duration = .milliseconds(100)
        ) {
            self.allowsInsecurePermissions = allowsInsecurePermissions
            self.lockTimeout = lockTimeout
            self.changeCheckInterval = changeCheckInterval
        }
    }

    /// The file holding the credentials.
    public let fileURL: URL
    /// The options the store was created with.
    public let options: Options
    private let core: FileStoreCore<PlainFileCodec>

    /// Creates a store for the file at `fileURL`. Nothing is read or created until it is used.
    /// - Parameters:
    ///   - fileURL: The JSON file; it and its folder are created on the first save.
    ///   - options: Permission and locking behaviour.
    public init(fileURL: URL, options: Options = Options()) {
        self.fileURL = fileURL
        self.options = options
        let file = StoreFile(fileURL: fileURL, options: options)
        self.core = FileStoreCore(file: file, codec: PlainFileCodec(path: file.path))
    }

    /// Reads the credentials; `nil` when the file does not exist.
    /// - Throws: ``TokenStoreError`` when the file is unreadable, of another format version,
    ///   or accessible by group or others. The file is left as it is.
    public func load() async throws(TokenStoreError) -> Credentials? {
        try await core.load()
    }

    /// Replaces the file atomically. An existing file that cannot be loaded is first moved
    /// aside to `<name>.unreadable-<timestamp>`.
    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        try await core.save(credentials)
    }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    public func clear() async throws(TokenStoreError) {
        try await core.clear()
    }

    /// Moves the file aside when it exists and cannot be loaded (not credentials, truncated, of
    /// an unknown format version, or accessible by group or others), inside the exclusive
    /// section, and returns where it went: `<name>.unreadable-<UTC timestamp>` beside it, with
    /// its contents and mode, never deleted. `nil` when there is no file or it loads; it is
    /// then left as it is. ``save(_:)`` and ``clear()`` do the same first; call this to tell
    /// someone where the file went.
    /// - Throws: ``TokenStoreError`` when the file cannot be read at all (``TokenStoreError/Kind/io``)
    ///   or the exclusive section cannot be entered (``TokenStoreError/Kind/lockFailed``).
    public func moveAsideIfUnreadable() async throws(TokenStoreError) -> URL? {
        try await core.moveAsideIfUnreadable().map { URL(fileURLWithPath: $0) }
    }

    /// Runs `body` while holding the in-process lock and `flock` on `<file>.lock`, so that no
    /// other task or process using this file runs an exclusive section at the same time.
    /// Nested calls from the same task tree run directly.
    /// - Throws: `CancellationError` when the task is cancelled while waiting,
    ///   ``TokenStoreError`` (``TokenStoreError/Kind/lockFailed``) when the lock cannot be
    ///   taken, or what `body` throws.
    public func withExclusiveAccess<T: Sendable>(
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await core.withExclusiveAccess(body)
    }

    /// `FileTokenStore(<path>)`.
    public var description: String { "FileTokenStore(\(core.file.path))" }
}
