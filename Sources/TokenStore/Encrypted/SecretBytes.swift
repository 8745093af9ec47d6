#if EncryptedTokenStore
import CSodium

/// Key material (a key or a passphrase) in memory from `sodium_malloc`: kept out of swap
/// where the system allows (`mlock`), guarded by inaccessible pages, read-only once
/// filled, and wiped with `sodium_memzero` before it is freed in `deinit`.
///
/// `@unchecked Sendable` is safe here: the bytes are written only inside `init`, before
/// the object can be shared, and are made read-only (`sodium_mprotect_readonly`) before
/// `init` returns; afterwards they are only read, until `deinit`, which runs when no
/// reference (and so no other thread) is left.
final class SecretBytes: @unchecked Sendable {
    let count: Int
    private let pointer: UnsafeMutableRawPointer

    /// Allocates `count` bytes and lets `fill` write them; `nil` when the allocation fails
    /// or `fill` returns `false` (the memory is wiped and freed).
    init?(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Bool) {
        guard count > 0, let pointer = sodium_malloc(count) else { return nil }
        guard fill(UnsafeMutableRawBufferPointer(start: pointer, count: count)) else {
            sodium_memzero(pointer, count)
            sodium_free(pointer)
            return nil
        }
        sodium_mprotect_readonly(pointer)
        self.pointer = pointer
        self.count = count
    }

    /// Copies `bytes` into secret memory; `nil` when empty or when the allocation fails.
    /// The caller remains responsible for wiping its own copy.
    convenience init?(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { buffer in
            buffer.copyBytes(from: bytes)
            return true
        }
    }

    /// Lends the bytes, read-only, for the duration of `body`.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Whether both hold the same bytes (compared in constant time).
    func hasSameBytes(as other: SecretBytes) -> Bool {
        count == other.count && sodium_memcmp(pointer, other.pointer, count) == 0
    }

    deinit {
        sodium_mprotect_readwrite(pointer)
        sodium_memzero(pointer, count)
        sodium_free(pointer)
    }
}
#endif
