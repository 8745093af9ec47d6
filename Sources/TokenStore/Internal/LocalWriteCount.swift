/// How many times the file stores of this process have written one store file (saved,
/// cleared or moved it aside), shared by every store instance of the process that uses the
/// file. A load outside the exclusive section that finds the count unchanged since its last
/// look at the file knows no store of this process wrote it since (see ``FileStoreCore``).
final class LocalWriteCount: Sendable {
    private let count = LockedValue<UInt64>(0)

    private init() {}

    /// The count now.
    var value: UInt64 { count.withLock { $0 } }

    /// Notes one more write.
    func increment() {
        count.withLock { $0 &+= 1 }
    }

    /// The count of the file at `path` (symbolic links resolved). Entries are never removed
    /// (one small object per distinct store file the process uses).
    static func forFile(_ path: String) -> LocalWriteCount {
        counts.withLock { counts in
            if let count = counts[path] { return count }
            let count = LocalWriteCount()
            counts[path] = count
            return count
        }
    }

    private static let counts = LockedValue<[String: LocalWriteCount]>([:])
}
