#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` says about a version of the store file: which file it is (device and
/// inode), how big, when it was last written or changed, and its owner and mode.
///
/// Every save replaces the file by renaming a new one over it, so a write by any process
/// gives a new inode and new times. ``FileStoreCore`` trusts an unchanged identity only for a
/// file whose modification time lies clearly before the moment it was read (see
/// ``isSettled(observedAt:)``): like git's "racily clean" index entries, a file written
/// within the file system's timestamp granularity of the read could be replaced by another
/// of the same size and time (with a reused inode) and is read again instead.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Timestamp
    var changed: Timestamp
    var mode: UInt32
    var owner: UInt32

    /// Seconds and nanoseconds since 1970.
    struct Timestamp: Equatable, Comparable, Sendable {
        var seconds: Int64
        var nanoseconds: Int64

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }

        /// This time minus `nanoseconds`.
        func minus(nanoseconds delta: Int64) -> Self {
            let total = seconds * 1_000_000_000 + nanoseconds - delta
            return Timestamp(seconds: total / 1_000_000_000, nanoseconds: total % 1_000_000_000)
        }

        /// The wall clock now (the clock file times are taken from).
        static func now() -> Self {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return Timestamp(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
        }
    }

    /// How far before the read a file must have been written to be trusted by its identity
    /// alone: above the coarsest timestamp granularity of local file systems (a kernel tick).
    static let settlingNanoseconds: Int64 = 100_000_000

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mode = UInt32(info.st_mode)
        owner = UInt32(info.st_uid)
        #if canImport(Darwin)
        modified = Timestamp(seconds: Int64(info.st_mtimespec.tv_sec), nanoseconds: Int64(info.st_mtimespec.tv_nsec))
        changed = Timestamp(seconds: Int64(info.st_ctimespec.tv_sec), nanoseconds: Int64(info.st_ctimespec.tv_nsec))
        #else
        modified = Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        changed = Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
        #endif
    }

    /// Whether the file was last written or changed clearly before `observedAt`, so that any
    /// later write shows as a different identity.
    func isSettled(observedAt: Timestamp) -> Bool {
        let limit = observedAt.minus(nanoseconds: Self.settlingNanoseconds)
        return modified < limit && changed < limit
    }

    /// What one `stat` of a path found.
    enum Lookup: Equatable, Sendable {
        case found(FileIdentity)
        case missing
        /// Any other error: the caller reads the file, which reports it properly.
        case unknown
    }

    /// The identity of the file at `path` now, following symbolic links.
    static func lookUp(_ path: String) -> Lookup {
        var info = stat()
        // `withCString` lends the string's own bytes; passing `path` as it is would copy them
        // into a new array (`utf8CString`) on every load.
        if path.withCString({ stat($0, &info) }) == 0 { return .found(FileIdentity(info)) }
        return errno == ENOENT ? .missing : .unknown
    }
}
