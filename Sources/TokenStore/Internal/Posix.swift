import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the system calls the file stores use, turning failures into
/// ``TokenStoreError`` values that name the file and carry `errno`.
enum Posix {
    /// An error for a failed system call, capturing `errno` before anything else can change it.
    static func failure(_ kind: TokenStoreError.Kind = .io, path: String, _ reason: @autoclosure () -> String) -> TokenStoreError {
        let code = errno
        return TokenStoreError(kind: kind, path: path, reason: reason(), errorNumber: code)
    }

    /// File-type bits of `st_mode` (`S_IFMT`) and the regular-file and folder values.
    static let fileTypeMask: mode_t = 0o170000
    static let regularFileType: mode_t = 0o100000
    static let directoryType: mode_t = 0o040000

    /// Opens `path` with `flags`, retrying on `EINTR`; `nil` when it does not exist and `missingIsNil`.
    static func openFile(_ path: String, _ flags: Int32, mode: mode_t = 0o600, missingIsNil: Bool = false, purpose: String) throws(TokenStoreError) -> Int32? {
        while true {
            let fd = open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            if missingIsNil && errno == ENOENT { return nil }
            throw failure(path: path, "cannot open it \(purpose)")
        }
    }

    /// The `stat` of an open file.
    static func status(of fd: Int32, path: String) throws(TokenStoreError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(path: path, "cannot read its status") }
        return info
    }

    /// Refuses a file that group or others can access, unless `allowed`.
    static func checkPermissions(_ info: stat, path: String, allowed: Bool, what: String) throws(TokenStoreError) {
        let permissions = info.st_mode & 0o777
        guard !allowed, permissions & 0o077 != 0 else { return }
        throw TokenStoreError(
            kind: .insecurePermissions,
            path: path,
            reason: "\(what) can be accessed by group or others (mode \(octal(permissions))); "
                + "it is refused like ssh refuses such keys: run `chmod 600` on it, "
                + "or opt out with Options(allowsInsecurePermissions: true)"
        )
    }

    /// A permission mode as four octal digits, e.g. `0644`.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(UInt32(mode), radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Reads exactly `count` bytes (or up to end of file) into `buffer`; returns how many were read.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(TokenStoreError) -> Int {
        var total = 0
        guard let base = buffer.baseAddress else { return 0 }
        while total < buffer.count {
            let n = systemRead(fd, base + total, buffer.count - total)
            if n > 0 {
                total += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw failure(path: path, "cannot read it")
            }
        }
        return total
    }

    /// Reads the whole of an open file of at most `limit` bytes.
    static func readAll(_ fd: Int32, path: String, limit: Int) throws(TokenStoreError) -> [UInt8] {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let n = try read(fd, into: chunk, path: path)
            bytes += chunk[..<n]
            if bytes.count > limit {
                throw TokenStoreError(kind: .unreadable, path: path, reason: "is too large to be a token store (over \(limit) bytes)")
            }
            if n < chunk.count { return bytes }
        }
    }

    /// Writes all of `buffer`, retrying on short writes and `EINTR`.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws(TokenStoreError) {
        var written = 0
        guard let base = buffer.baseAddress else { return }
        while written < buffer.count {
            let n = systemWrite(fd, base + written, buffer.count - written)
            if n >= 0 {
                written += n
            } else if errno != EINTR {
                throw failure(path: path, "cannot write it")
            }
        }
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(TokenStoreError) {
        let failure: TokenStoreError? = bytes.withUnsafeBytes { buffer in
            do throws(TokenStoreError) {
                try writeAll(fd, buffer, path: path)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Flushes an open file to stable storage (`F_FULLFSYNC` on Apple platforms, where
    /// plain `fsync` does not reach the disk).
    static func sync(_ fd: Int32, path: String) throws(TokenStoreError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw failure(path: path, "cannot flush it to disk") }
    }

    /// Flushes a folder's entries (a rename or a new name) to stable storage. Filesystems
    /// that cannot sync a folder (`EINVAL`) are accepted.
    static func syncFolder(_ folder: String) throws(TokenStoreError) {
        guard let fd = try openFile(folder, O_RDONLY | O_DIRECTORY, purpose: "to flush the folder") else { return }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL {
            throw failure(path: folder, "cannot flush the folder to disk")
        }
    }

    /// Creates `folder` and any missing parents with mode 0700. Existing folders are left as they are.
    static func makeFolder(_ folder: String) throws(TokenStoreError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & fileTypeMask == directoryType else {
                throw TokenStoreError(kind: .io, path: folder, reason: "is not a folder", errorNumber: ENOTDIR)
            }
            return
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != folder {
            try makeFolder(parent)
        }
        if mkdir(folder, 0o700) != 0 {
            if errno == EEXIST { return }
            throw failure(path: folder, "cannot create the folder")
        }
        // mkdir applies the umask; set exactly 0700 on the folder we created.
        chmod(folder, 0o700)
    }

    /// Renames `source` to `destination`, replacing it atomically.
    static func rename(_ source: String, to destination: String) throws(TokenStoreError) {
        guard systemRename(source, destination) == 0 else {
            throw failure(path: destination, "cannot rename \(source) to it")
        }
    }

    /// Removes `path`; returns `false` when it did not exist.
    @discardableResult
    static func remove(_ path: String) throws(TokenStoreError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure(path: path, "cannot remove it")
    }

    /// Whether anything (even a dangling symbolic link) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// A random lowercase hex string of `byteCount` bytes, for unique temporary names.
    static func randomHex(byteCount: Int = 8) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}

// The C functions whose names the wrappers above reuse.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
