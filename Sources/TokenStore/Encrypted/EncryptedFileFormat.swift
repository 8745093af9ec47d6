#if EncryptedTokenStore

/// The layout of an encrypted token store file, format version 1, and of bytes sealed bound to
/// a place (a database row's table and account), format version 2.
///
/// All integers are little-endian. Offsets and sizes in bytes:
///
/// | offset | size   | field                                                                          |
/// |-------:|-------:|--------------------------------------------------------------------------------|
/// |      0 |      8 | magic: `89 54 4B 53 0D 0A 1A 0A` (`\x89 T K S \r \n \x1A \n`, PNG-style: binary, and line-ending damage shows) |
/// |      8 |      1 | format version: `1`, or `2` for bytes bound to a place (see below)              |
/// |      9 |      1 | key derivation: `0` none (key file or raw key), `1` Argon2id v1.3 (`crypto_pwhash`) |
/// |     10 |      8 | Argon2id opslimit (`0` when no derivation)                                     |
/// |     18 |      8 | Argon2id memlimit in bytes (`0` when no derivation)                            |
/// |     26 |     16 | Argon2id salt (zeros when no derivation)                                       |
/// |     42 |     24 | nonce: fresh random bytes for every write                                      |
/// |     66 | n + 16 | XChaCha20-Poly1305 ciphertext of the n-byte plaintext, then its 16-byte tag    |
///
/// - The 42-byte header (offsets 0–41) is the AEAD associated data, so modifying any header
///   byte, like any nonce, ciphertext or tag byte, makes decryption fail.
/// - Version 2 is version 1 with the *binding* appended to the associated data: the UTF-8 bytes
///   of a string naming where the bytes belong (`CredentialsSealer.seal(_:boundTo:)`; the
///   PostgreSQL store binds a row to its table and account). The binding is not stored: the
///   reader supplies it, so bytes moved or copied to another place fail to decrypt like modified
///   ones. A file store writes and reads version 1 only.
/// - The plaintext is the JSON a plain ``FileTokenStore`` writes (see `CredentialsFile`).
/// - Encryption is `crypto_aead_xchacha20poly1305_ietf_encrypt` (combined mode) with a
///   32-byte key: the Argon2id output for a passphrase, or the key itself.
/// - Readers check the magic, then the version (an unknown version is
///   ``TokenStoreError/Kind/unsupportedFormatVersion``), then the key derivation and its
///   parameters (bounded, so a modified header cannot make the reader derive for minutes),
///   then the length, and only then decrypt.
enum EncryptedFileFormat {
    static let magic = CredentialsFile.encryptedMagic
    /// The version of files, and of bytes sealed without a binding.
    static let version: UInt8 = 1
    /// The version of bytes sealed bound to a place: the binding follows the header in the associated data.
    static let boundVersion: UInt8 = 2
    static let headerByteCount = 42
    static let nonceOffset = 42
    static let payloadOffset = 66
    /// The shortest valid file: header, nonce and the tag of an empty plaintext.
    static var minimumByteCount: Int { payloadOffset + Sodium.tagByteCount }

    /// How the key was obtained, as written in the header (the store's public
    /// `EncryptedFileTokenStore.KeyDerivation` is the Argon2id cost a caller chooses).
    enum KeyDerivationMethod: Equatable {
        /// The key was supplied (key file or raw bytes).
        case none
        /// Argon2id v1.3 over a passphrase.
        case argon2id(opsLimit: UInt64, memoryLimit: UInt64)

        var id: UInt8 {
            switch self {
            case .none: 0
            case .argon2id: 1
            }
        }
    }

    /// The header fields.
    struct Header: Equatable {
        var keyDerivation: KeyDerivationMethod
        /// 16 bytes; zeros when there is no derivation.
        var salt: [UInt8]

        /// The header of files encrypted with a supplied key.
        static var suppliedKey: Header {
            Header(keyDerivation: .none, salt: [UInt8](repeating: 0, count: Sodium.saltByteCount))
        }

        /// The 42 header bytes of format `version` (the associated data, or its start).
        func bytes(version: UInt8) -> [UInt8] {
            var bytes = magic
            bytes.append(version)
            bytes.append(keyDerivation.id)
            let (ops, memory): (UInt64, UInt64) = switch keyDerivation {
            case .none: (0, 0)
            case .argon2id(let ops, let memory): (ops, memory)
            }
            bytes += littleEndianBytes(ops)
            bytes += littleEndianBytes(memory)
            bytes += salt
            return bytes
        }
    }

    /// A parsed file: its format version, header, the header's bytes as read, the nonce and the sealed payload.
    struct Parsed {
        /// ``version`` or ``boundVersion``.
        var version: UInt8
        var header: Header
        var headerBytes: [UInt8]
        var nonce: ArraySlice<UInt8>
        var sealed: ArraySlice<UInt8>
    }

    /// Parses `bytes` without decrypting them.
    static func parse(_ bytes: [UInt8], path: String) throws(TokenStoreError) -> Parsed {
        func unreadable(_ reason: String) -> TokenStoreError {
            TokenStoreError(kind: .unreadable, path: path, reason: reason)
        }
        if bytes.isEmpty {
            throw unreadable("is empty")
        }
        let magicPart = bytes.prefix(magic.count)
        guard magic.starts(with: magicPart) else {
            if bytes.first == UInt8(ascii: "{") {
                throw unreadable("is a plain (unencrypted) token store file, not an encrypted one (open it with FileTokenStore)")
            }
            throw unreadable("is not an encrypted token store file (its first bytes are not the format's magic)")
        }
        guard bytes.count > magic.count else {
            throw unreadable("is truncated (\(bytes.count) bytes)")
        }
        guard bytes[8] == version || bytes[8] == boundVersion else {
            throw TokenStoreError(
                kind: .unsupportedFormatVersion, path: path,
                reason: "has encrypted format version \(bytes[8]); this code reads versions \(version) and \(boundVersion)"
            )
        }
        guard bytes.count >= minimumByteCount else {
            throw unreadable("is truncated (\(bytes.count) bytes; an encrypted token store file has at least \(minimumByteCount))")
        }
        let ops = readLittleEndian(bytes, at: 10)
        let memory = readLittleEndian(bytes, at: 18)
        let keyDerivation: KeyDerivationMethod
        switch bytes[9] {
        case 0:
            keyDerivation = .none
        case 1:
            guard EncryptedFileTokenStore.KeyDerivation.acceptedOpsLimits.contains(ops),
                  EncryptedFileTokenStore.KeyDerivation.acceptedMemoryLimits.contains(memory) else {
                throw unreadable("has Argon2id parameters out of the accepted range (opslimit \(ops), memlimit \(memory)); the file was modified or not written by this SDK")
            }
            keyDerivation = .argon2id(opsLimit: ops, memoryLimit: memory)
        default:
            throw unreadable("names an unknown key derivation (\(bytes[9])); the file was modified or not written by this SDK")
        }
        return Parsed(
            version: bytes[8],
            header: Header(keyDerivation: keyDerivation, salt: Array(bytes[26..<42])),
            headerBytes: Array(bytes[0..<headerByteCount]),
            nonce: bytes[nonceOffset..<payloadOffset],
            sealed: bytes[payloadOffset...]
        )
    }

    private static func littleEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
#endif
