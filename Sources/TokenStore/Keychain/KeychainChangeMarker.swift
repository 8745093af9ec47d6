#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a ``KeychainTokenStore`` whether its item may have changed since it last read it,
/// without reading the Keychain: a marker that every save and clear, inside the exclusive
/// section, replaces with a new random value, after writing the item.
///
/// With a lock file, the marker is the lock file's contents, so every process sharing the
/// lock file sees every save. A load reads the marker before the item, so credentials cached
/// with a marker are never older than the item was when that marker was current. Without a
/// lock file, the marker is a counter shared by the stores of this process on the item; and
/// for an item in an access group without a lock file there is no marker (other processes may
/// write it unseen), so every load reads the Keychain.
struct KeychainChangeMarker: Sendable {
    enum Place: Sendable {
        case lockFile(String)
        case process(key: String)
        case none
    }

    let place: Place

    /// The marker now; `nil` when there is none yet (or it cannot be read): do not cache.
    func read() -> String? {
        switch place {
        case .lockFile(let path):
            guard let fd = try? Posix.openFile(path, O_RDONLY, missingIsNil: true, purpose: "to read the change marker") else {
                return nil
            }
            defer { close(fd) }
            guard let bytes = try? Posix.readAll(fd, path: path, limit: 256), !bytes.isEmpty else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .process(let key):
            return "process-" + String(Self.counters.withLock { $0[key, default: 0] })
        case .none:
            return nil
        }
    }

    /// Makes `change` to the item, then replaces the marker with a new one and returns it
    /// (`nil` when there is no marker); call it inside the exclusive section. The lock file is
    /// opened before the change, so a lock file that cannot be written fails with nothing changed.
    func change(_ change: () throws(TokenStoreError) -> Void) throws(TokenStoreError) -> String? {
        switch place {
        case .lockFile(let path):
            guard let fd = try Posix.openFile(path, O_WRONLY | O_CREAT, purpose: "to write the change marker") else { return nil }
            defer { close(fd) }
            try change()
            let marker = Posix.randomHex(byteCount: 16)
            do throws(TokenStoreError) {
                // Same length every time: written in place over the last marker.
                try Posix.writeAll(fd, Array(marker.utf8), path: path)
            } catch {
                var error = error
                error.reason = "the item was changed, but the change marker could not be written, so other "
                    + "processes may not see the change until the next save: " + error.reason
                throw error
            }
            _ = ftruncate(fd, off_t(marker.utf8.count))
            return marker
        case .process(let key):
            try change()
            return "process-" + String(Self.counters.withLock { counters in
                counters[key, default: 0] += 1
                return counters[key, default: 0]
            })
        case .none:
            try change()
            return nil
        }
    }

    /// The markers of the items whose stores have no lock file, per item.
    private static let counters = LockedValue<[String: Int]>([:])
}
