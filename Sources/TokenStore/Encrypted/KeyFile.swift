#if EncryptedTokenStore
import CSodium
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a 32-byte key file, creating it when missing.
///
/// Creation is race-free across processes: the random key is written to a temporary file
/// (0600) and flushed, then `link`ed to the key file's name, which fails if another
/// process got there first; everyone then reads the one file that won.
enum KeyFile {
    static func loadOrCreate(at url: URL, options: FileTokenStore.Options) throws(TokenStoreError) -> SecretBytes {
        let path = url.standardizedFileURL.path
        if let key = try read(path, options: options) { return key }
        try create(path)
        guard let key = try read(path, options: options) else {
            throw TokenStoreError(kind: .invalidKey, path: path, reason: "the key file disappeared right after it was created")
        }
        return key
    }

    /// The key in the file; `nil` when there is no file.
    private static func read(_ path: String, options: FileTokenStore.Options) throws(TokenStoreError) -> SecretBytes? {
        guard let fd = try Posix.openFile(path, O_RDONLY | O_NONBLOCK, missingIsNil: true, purpose: "to read the key") else { return nil }
        defer { close(fd) }
        let info = try Posix.status(of: fd, path: path)
        guard info.st_mode & Posix.fileTypeMask == Posix.regularFileType else {
            throw TokenStoreError(kind: .invalidKey, path: path, reason: "the key file is not a regular file")
        }
        try Posix.checkPermissions(info, path: path, allowed: options.allowsInsecurePermissions, what: "the key file")
        guard Int(info.st_size) == Sodium.keyByteCount else {
            throw TokenStoreError(
                kind: .invalidKey, path: path,
                reason: "a key file must hold exactly \(Sodium.keyByteCount) bytes (it holds \(info.st_size))"
            )
        }
        var failure: TokenStoreError?
        let key = SecretBytes(count: Sodium.keyByteCount) { buffer in
            do throws(TokenStoreError) {
                return try Posix.read(fd, into: buffer, path: path) == buffer.count
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        guard let key else {
            throw TokenStoreError(kind: .invalidKey, path: path, reason: "the key file could not be read whole")
        }
        return key
    }

    /// Creates the key file with 32 random bytes unless another process just did.
    private static func create(_ path: String) throws(TokenStoreError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try Posix.makeFolder(folder)
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-" + Posix.randomHex()
        guard let fd = try Posix.openFile(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600, purpose: "to create the key file") else {
            throw TokenStoreError(kind: .io, path: temporary, reason: "cannot create it")
        }
        defer { unlink(temporary) }
        do throws(TokenStoreError) {
            guard fchmod(fd, 0o600) == 0 else { throw Posix.failure(path: temporary, "cannot set its mode to 0600") }
            guard let key = SecretBytes(count: Sodium.keyByteCount, fill: { buffer in
                guard let base = buffer.baseAddress else { return false }
                randombytes_buf(base, buffer.count)
                return true
            }) else {
                throw TokenStoreError(kind: .invalidKey, path: path, reason: "could not allocate secure memory for the key")
            }
            var failure: TokenStoreError?
            key.withUnsafeBytes { buffer in
                do throws(TokenStoreError) {
                    try Posix.writeAll(fd, buffer, path: temporary)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            try Posix.sync(fd, path: temporary)
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        if link(temporary, path) != 0 && errno != EEXIST {
            throw Posix.failure(path: path, "cannot create the key file")
        }
        try Posix.syncFolder(folder)
    }
}
#endif
