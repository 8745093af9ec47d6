import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file discipline shared by the file stores: where the file, its lock and its
/// temporary files live, how it is read (refusing insecure permissions), replaced
/// atomically, removed, moved aside, and how the exclusive section is entered.
///
/// - The store file is written by creating `.<name>.tmp-<pid>-<random>` in the same
///   folder (mode 0600), writing, `fsync`, `rename` over the file, and `fsync` of the
///   folder: a reader, or the next process after a crash, sees the old or the new file.
/// - Folders the store creates get mode 0700; files get 0600.
/// - The exclusive section is a ``SectionLock`` on `<name>.lock` beside the file.
/// - `save` runs inside the section, so a temporary file it finds there belongs to a
///   writer that died; it is removed.
struct StoreFile: Sendable {
    /// The store file.
    let path: String
    /// Its last path component.
    let name: String
    /// The exclusive section: `flock` on `<path>.lock`, in the same folder.
    let section: SectionLock
    let options: FileTokenStore.Options

    /// Largest file the stores read; token files are a few hundred bytes.
    static let sizeLimit = 1 << 20

    init(fileURL: URL, options: FileTokenStore.Options) {
        // A symbolic link in the file's place is followed: the store reads and atomically
        // replaces its target (the temporary file and the lock file sit beside the target),
        // so the link stays a link and every path to the file shares one lock.
        let url = Self.resolvingLink(fileURL.standardizedFileURL)
        (path, name) = (url.path, url.lastPathComponent)
        section = SectionLock(lockFileURL: url.appendingPathExtension("lock"), timeout: options.lockTimeout)
        self.options = options
    }

    /// The folder holding the file (and its lock file).
    var folder: String { section.folder }

    /// `url`, or the file its symbolic links lead to when it is one; a dangling link gives its
    /// target's path (where the first save creates the file), with relative targets joined
    /// to the link's real folder.
    static func resolvingLink(_ url: URL) -> URL {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil else { return url }
        if let resolved = realPath(url.path) { return URL(fileURLWithPath: resolved) }
        var url = url
        for _ in 0..<16 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { return url }
            let folder = realPath(url.deletingLastPathComponent().path) ?? url.deletingLastPathComponent().path
            url = target.hasPrefix("/") ? URL(fileURLWithPath: target) : URL(fileURLWithPath: folder).appendingPathComponent(target)
            url = url.standardizedFileURL
        }
        return url
    }

    /// `realpath(3)`: the path with every symbolic link resolved; `nil` when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private var temporaryPrefix: String { "." + name + ".tmp-" }

    // MARK: Reading

    /// The file's bytes; `nil` when there is no file.
    func read() throws(TokenStoreError) -> [UInt8]? {
        try readWithIdentity()?.bytes
    }

    /// The file's bytes and the identity of the version they were read from (from `fstat` of
    /// the same descriptor); `nil` when there is no file.
    func readWithIdentity() throws(TokenStoreError) -> (bytes: [UInt8], identity: FileIdentity)? {
        // O_NONBLOCK: a FIFO (or a link to one) in the file's place must not block the open;
        // it is refused below as not a regular file. Regular files ignore the flag.
        guard let fd = try Posix.openFile(path, O_RDONLY | O_NONBLOCK, missingIsNil: true, purpose: "for reading") else {
            return nil
        }
        defer { close(fd) }
        let info = try Posix.status(of: fd, path: path)
        guard info.st_mode & Posix.fileTypeMask == Posix.regularFileType else {
            throw TokenStoreError(kind: .unreadable, path: path, reason: "is not a regular file")
        }
        try Posix.checkPermissions(info, path: path, allowed: options.allowsInsecurePermissions, what: "the file")
        return (try Posix.readAll(fd, path: path, limit: Self.sizeLimit), FileIdentity(info))
    }

    // MARK: Writing

    /// Replaces the file with `bytes` atomically (see the type's documentation).
    func replace(with bytes: [UInt8]) throws(TokenStoreError) {
        try Posix.makeFolder(folder)
        let temporary = folder + "/" + temporaryPrefix + "\(getpid())-" + Posix.randomHex()
        guard let fd = try Posix.openFile(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600, purpose: "to write a new version") else {
            throw TokenStoreError(kind: .io, path: temporary, reason: "cannot create it")
        }
        var isOpen = true
        do throws(TokenStoreError) {
            // The umask may have removed bits; the file must be exactly 0600.
            guard fchmod(fd, 0o600) == 0 else { throw Posix.failure(path: temporary, "cannot set its mode to 0600") }
            try Posix.writeAll(fd, bytes, path: temporary)
            try Posix.sync(fd, path: temporary)
            isOpen = false
            guard close(fd) == 0 else { throw Posix.failure(path: temporary, "cannot close it") }
            try Posix.rename(temporary, to: path)
        } catch {
            // Never close twice: the number may already belong to another thread's file.
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        try Posix.syncFolder(folder)
    }

    /// Removes the file; nothing happens when there is none.
    func remove() throws(TokenStoreError) {
        if try Posix.remove(path) {
            try Posix.syncFolder(folder)
        }
    }

    /// Renames the file to `<name>.unreadable-<UTC timestamp>` (adding `-2`, `-3`, … if
    /// taken) and returns the new path. Its contents and mode are kept.
    @discardableResult
    func moveAside() throws(TokenStoreError) -> String {
        let stamp = Date().formatted(
            .iso8601.year().month().day().dateSeparator(.omitted)
                .time(includingFractionalSeconds: false).timeSeparator(.omitted).timeZone(separator: .omitted)
        )
        var destination = "\(path).unreadable-\(stamp)"
        var attempt = 1
        while Posix.exists(destination) {
            attempt += 1
            destination = "\(path).unreadable-\(stamp)-\(attempt)"
        }
        try Posix.rename(path, to: destination)
        try Posix.syncFolder(folder)
        return destination
    }

    /// What ``moveAsideIfUnreadable(validate:)`` found in the file's place.
    enum Found: Equatable {
        /// No file.
        case nothing
        /// A file that reads; it is in place.
        case readable
        /// A file that could not be read, now at this path.
        case movedAside(to: String)
    }

    /// Inside the exclusive section: moves the file aside when it exists but `validate`
    /// (or reading it) fails, and says what it found.
    func moveAsideIfUnreadable(
        validate: ([UInt8]) async throws(TokenStoreError) -> Void
    ) async throws(TokenStoreError) -> Found {
        do {
            guard let bytes = try read() else { return .nothing }
            try await validate(bytes)
            return .readable
        } catch {
            // Only a file that is itself bad is moved aside; an I/O error, a lock or key
            // problem says nothing about the file, and moving a good file would lose it.
            let fileIsBad: Set<TokenStoreError.Kind> = [.unreadable, .decryptionFailed, .unsupportedFormatVersion, .insecurePermissions]
            guard fileIsBad.contains(error.kind) else { throw error }
            guard Posix.exists(path) else { return .nothing }
            // Only a regular file is moved aside: a FIFO or a folder in its place (perhaps the
            // target of a link) is not the store's to rename.
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & Posix.fileTypeMask == Posix.regularFileType else { throw error }
            return .movedAside(to: try moveAside())
        }
    }

    /// Inside the exclusive section: removes temporary files left by writers that died mid-save.
    func removeStaleTemporaryFiles() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(temporaryPrefix) {
            unlink(folder + "/" + entry)
        }
    }

    // MARK: The exclusive section

    /// Runs `body` inside the exclusive section (directly when this task tree already holds it).
    /// - Parameter cancellable: Whether cancelling the task stops the wait for the lock
    ///   (with `CancellationError`). `save` and `clear` use the typed variant, which does not.
    func withExclusiveAccess<T>(cancellable: Bool, _ body: () async throws -> T) async throws -> T {
        try await section.run(cancellable: cancellable, body)
    }

    /// ``withExclusiveAccess(cancellable:_:)`` for the store's own work; waiting ignores cancellation.
    func withExclusiveAccess<T>(_ body: () async throws(TokenStoreError) -> T) async throws(TokenStoreError) -> T {
        try await section.run(body)
    }
}
