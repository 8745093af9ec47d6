#if EncryptedTokenStore
import CSodium
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A DPoP key's private bytes (the JWK's `d`). With the `EncryptedTokenStore` trait they are in
/// libsodium's guarded memory (``SecretBytes``: out of swap where the system allows, read-only,
/// wiped when freed); without it, in a buffer of their own that is wiped in `deinit`.
///
/// Never printed: the description and mirror say `<redacted>`.
package final class DPoPPrivateKeyBytes: Sendable, CustomStringConvertible, CustomReflectable {
    #if EncryptedTokenStore
    private let secret: SecretBytes
    #else
    private let storage: ZeroedOnFree
    #endif

    /// A copy of `bytes` (the caller wipes its own, see ``wipe(_:)``); `nil` when empty or when
    /// the memory cannot be allocated.
    package init?(copying bytes: [UInt8]) {
        #if EncryptedTokenStore
        guard (try? Sodium.ensureReady()) != nil, let secret = SecretBytes(copying: bytes) else { return nil }
        self.secret = secret
        #else
        guard !bytes.isEmpty else { return nil }
        storage = ZeroedOnFree(copying: bytes)
        #endif
    }

    /// How many bytes.
    package var count: Int {
        #if EncryptedTokenStore
        secret.count
        #else
        storage.count
        #endif
    }

    /// Lends the bytes, read-only, for the duration of `body`.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        #if EncryptedTokenStore
        try secret.withUnsafeBytes(body)
        #else
        try body(UnsafeRawBufferPointer(storage.buffer))
        #endif
    }

    /// Whether both hold the same bytes, compared in constant time.
    package func hasSameBytes(as other: DPoPPrivateKeyBytes) -> Bool {
        #if EncryptedTokenStore
        return secret.hasSameBytes(as: other.secret)
        #else
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                var difference: UInt8 = 0
                for index in 0..<mine.count { difference |= mine[index] ^ theirs[index] }
                return difference == 0
            }
        }
        #endif
    }

    /// Overwrites `bytes` with zeros in a way the optimiser does not remove: for the caller's
    /// own copy of key material once it is no longer needed.
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            #if EncryptedTokenStore
            sodium_memzero(base, buffer.count)
            #elseif canImport(Darwin)
            _ = memset_s(base, buffer.count, 0, buffer.count)
            #else
            explicit_bzero(base, buffer.count)
            #endif
        }
    }

    /// `<redacted>`.
    package var description: String { "<redacted>" }

    /// A mirror with the length only.
    package var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}

#if !EncryptedTokenStore
/// Bytes in memory of their own, wiped before they are freed.
///
/// `@unchecked Sendable` is safe here: the bytes are written only in `init`, before the object
/// can be shared; afterwards they are only read, until `deinit`, which runs when no reference
/// (and so no other thread) is left.
private final class ZeroedOnFree: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
    var count: Int { buffer.count }

    init(copying bytes: [UInt8]) {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        buffer.copyBytes(from: bytes)
    }

    deinit {
        if let base = buffer.baseAddress {
            #if canImport(Darwin)
            _ = memset_s(base, buffer.count, 0, buffer.count)
            #else
            explicit_bzero(base, buffer.count)
            #endif
        }
        buffer.deallocate()
    }
}
#endif
