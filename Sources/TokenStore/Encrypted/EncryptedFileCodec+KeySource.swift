#if EncryptedTokenStore
import Foundation

extension EncryptedFileCodec {
    /// A codec holding the key that `key` names: the one place that turns a
    /// ``EncryptedFileTokenStore/KeySource`` into key material, for ``EncryptedFileTokenStore``
    /// and ``CredentialsSealer`` alike.
    ///
    /// - Parameters:
    ///   - key: Where the key comes from. A passphrase is stretched with Argon2id here (slow on
    ///     purpose); a missing key file is created with 32 random bytes, mode 0600.
    ///   - path: Where the sealed credentials live, for error messages.
    ///   - allowsInsecurePermissions: Read a key file that group or others can access.
    ///   - existingBytes: For a passphrase only: sealed bytes already stored, whose salt and
    ///     Argon2id parameters are reused so that reading them needs no second derivation
    ///     (`nil`, or bytes of another format, give a new random salt).
    static func make(
        key: EncryptedFileTokenStore.KeySource,
        path: String,
        allowsInsecurePermissions: Bool,
        existingBytes: () -> [UInt8]?
    ) async throws(TokenStoreError) -> EncryptedFileCodec {
        try Sodium.ensureReady()
        switch key.storage {
        case .rawKey(let bytes):
            guard bytes.count == Sodium.keyByteCount else {
                throw TokenStoreError(kind: .invalidKey, reason: "a raw key must be \(Sodium.keyByteCount) bytes (got \(bytes.count))")
            }
            guard let secret = SecretBytes(copying: bytes) else {
                throw TokenStoreError(kind: .invalidKey, reason: "could not allocate secure memory for the key")
            }
            return EncryptedFileCodec(path: path, passphrase: nil, current: CurrentKey(header: .suppliedKey, key: secret))
        case .keyFile(let keyFileURL):
            let options = FileTokenStore.Options(allowsInsecurePermissions: allowsInsecurePermissions)
            let secret = try KeyFile.loadOrCreate(at: keyFileURL, options: options)
            return EncryptedFileCodec(path: path, passphrase: nil, current: CurrentKey(header: .suppliedKey, key: secret))
        case .passphrase(let text, let derivation):
            try derivation.validate()
            var bytes = Array(text.precomposedStringWithCanonicalMapping.utf8)
            defer { Sodium.wipe(&bytes) }
            guard !bytes.isEmpty else {
                throw TokenStoreError(kind: .invalidKey, reason: "the passphrase is empty")
            }
            guard let secret = SecretBytes(copying: bytes) else {
                throw TokenStoreError(kind: .invalidKey, reason: "could not allocate secure memory for the passphrase")
            }
            // Use the existing salt and parameters so that reads need no new derivation.
            let existing = existingBytes().flatMap { try? EncryptedFileFormat.parse($0, path: path) }
            let header: EncryptedFileFormat.Header
            if let existing, case .argon2id = existing.header.keyDerivation {
                header = existing.header
            } else {
                header = EncryptedFileFormat.Header(
                    keyDerivation: .argon2id(opsLimit: derivation.opsLimit, memoryLimit: derivation.memoryLimit),
                    salt: Sodium.randomBytes(count: Sodium.saltByteCount)
                )
            }
            let derived = try await deriveKey(passphrase: secret, header: header, path: path)
            return EncryptedFileCodec(path: path, passphrase: secret, current: CurrentKey(header: header, key: derived))
        }
    }
}
#endif
