/// The 64-bit key of a PostgreSQL advisory lock for one account's row: FNV-1a over the
/// table's qualified name and the account, so that every process computes the same key
/// (Swift's `Hasher` is seeded per process and cannot be used). Advisory locks live per
/// database; a collision with another key would only make two sections take turns.
enum AdvisoryLockKey {
    static func make(table: String, account: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("appsdk-token-store".utf8) + [0] + Array(table.utf8) + [0] + Array(account.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
