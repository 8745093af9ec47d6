import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signing secret kept in `<data-dir>/jwt-secret` when none is configured.
///
/// The first start generates 32 random bytes, writes them base64url-encoded with mode 0600
/// and reuses them on every later start, so tokens survive a restart.
public enum SecretFile {
    /// The file name inside the data directory.
    public static let fileName = "jwt-secret"

    /// Reads the secret from `directory/jwt-secret`, creating directory and file when missing.
    /// - Throws: ``ConfigurationError/file(path:reason:)`` when the file cannot be read or written,
    ///   or holds fewer than 32 bytes.
    ///   Also when the folder or the file can be accessed by group or others (see ``requirePrivate(_:what:fix:)``).
    public static func loadOrCreate(in directory: String) throws(ConfigurationError) -> String {
        let path = (directory as NSString).appendingPathComponent(fileName)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: directory) {
            try requirePrivate(directory, what: "the data folder", fix: "chmod 700")
        }
        if fileManager.fileExists(atPath: path) {
            try requirePrivate(path, what: "the signing secret file", fix: "chmod 600")
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw .file(path: path, reason: "cannot read: \(error.localizedDescription)")
            }
            let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret.utf8.count >= ServerConfiguration.minimumSecretLength else {
                throw .file(path: path, reason: "holds fewer than \(ServerConfiguration.minimumSecretLength) bytes")
            }
            return secret
        }
        do {
            try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file(path: directory, reason: "cannot create directory: \(error.localizedDescription)")
        }
        try requirePrivate(directory, what: "the data folder", fix: "chmod 700")
        let secret = RandomToken.make(byteCount: 32)
        // Create with 0600 from the start (never readable by others, not even briefly); O_EXCL so
        // that two servers starting at once cannot overwrite each other's secret.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EEXIST {
                // Another server created it just now: read that one. Else it is a link to a
                // missing file (O_EXCL never follows a link), which reading would not find either.
                if fileManager.fileExists(atPath: path) { return try loadOrCreate(in: directory) }
                throw .file(path: path, reason: "is a symbolic link to a missing file; create the secret there or remove the link")
            }
            throw .file(path: path, reason: "cannot create: \(reason)")
        }
        defer { close(fd) }
        let bytes = Array((secret + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw .file(path: path, reason: "cannot write: \(String(cString: strerror(errno)))")
        }
        return secret
    }

    /// Refuses a file or folder that group or others can access (any of the mode bits 0077), as
    /// ssh refuses such keys and the SDK's token store refuses such files. The server never
    /// changes the mode itself: a wrong mode means someone else may already have read the secret.
    ///
    /// Symbolic links are followed, as the token stores do: a mounted secret (Kubernetes links
    /// `jwt-secret` to `..data/jwt-secret`) or a linked data folder is judged by its target, whose
    /// mode is the one that matters (a link's own mode is always 0777 and `chmod` cannot change
    /// it). When `path` goes through a link, the message names the target, the file to `chmod`.
    /// - Throws: ``ConfigurationError/file(path:reason:)`` saying what to run.
    public static func requirePrivate(_ path: String, what: String, fix: String) throws(ConfigurationError) {
        let target = linkTarget(path)
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: target ?? path)
        } catch {
            throw .file(path: path, reason: "cannot read its mode: \(error.localizedDescription)")
        }
        guard let permissions = attributes[.posixPermissions] as? Int else {
            throw .file(path: path, reason: "cannot read its mode")
        }
        let mode = permissions & 0o777
        guard mode & 0o077 == 0 else {
            let octal = String(mode, radix: 8)
            throw .file(
                path: path,
                reason: (target.map { "a link to \($0): " } ?? "")
                    + "\(what) can be accessed by group or others (mode 0\(octal)); refused: run `\(fix) \(target ?? path)`"
                    + (target == nil ? "" : " (for a mounted secret, set the mode where it is mounted, e.g. Kubernetes defaultMode: 0400)")
            )
        }
    }

    /// The file or folder a symbolic link at `path` leads to (all links resolved); `nil` when
    /// `path` is not a link. (A link in a folder above, such as macOS's `/var`, needs no mention:
    /// `chmod PATH` then reaches the right file.)
    static func linkTarget(_ path: String) -> String? {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil,
              let resolved = realpath(path, nil)
        else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
