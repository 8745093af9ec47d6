#if EncryptedTokenStore

/// The encoding of ``EncryptedFileTokenStore``: the credentials' JSON sealed with
/// XChaCha20-Poly1305 under the store's key, in the layout of ``EncryptedFileFormat``.
///
/// It keeps the key in use and the header it belongs to, and, when the key comes from a
/// passphrase, the passphrase (in wiped memory): a file that another process recreated with
/// its own salt is decrypted by deriving the key for that salt once, and that key is then
/// kept for the following reads and writes.
final class EncryptedFileCodec: FileStoreCodec {
    /// The key in use and the header it belongs to.
    struct CurrentKey: Sendable {
        var header: EncryptedFileFormat.Header
        var key: SecretBytes
    }

    /// The file, for error messages.
    let path: String
    /// The passphrase, when the key comes from one.
    private let passphrase: SecretBytes?
    /// Replaced (never mutated) when a file with another salt decrypts with the passphrase.
    private let current: LockedValue<CurrentKey>
    /// One key derivation at a time, so that concurrent reads of a file with a new salt
    /// derive its key once (64 MiB and a tenth of a second each) and share it.
    private let derivation = AsyncLock()
    /// How many keys were derived for files with another salt (for tests).
    let derivationCount = LockedValue(0)

    init(path: String, passphrase: SecretBytes?, current: CurrentKey) {
        self.path = path
        self.passphrase = passphrase
        self.current = LockedValue(current)
    }

    func encode(_ json: [UInt8]) throws(TokenStoreError) -> [UInt8] {
        let current = self.current.withLock { $0 }
        let header = current.header.bytes
        let nonce = Sodium.randomBytes(count: Sodium.nonceByteCount)
        let sealed = Sodium.seal(json, associatedData: header, nonce: nonce, key: current.key)
        return header + nonce + sealed
    }

    func discard(_ json: inout [UInt8]) {
        Sodium.wipe(&json)
    }

    func decode(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials {
        let parsed = try EncryptedFileFormat.parse(bytes, path: path)
        let current = self.current.withLock { $0 }
        switch (parsed.header.keyDerivation, passphrase) {
        case (.none, nil):
            return try open(parsed, key: current.key)
        case (.argon2id, let passphrase?):
            if parsed.header == current.header {
                return try open(parsed, key: current.key)
            }
            // Another process created the file with its own salt: derive its key once and keep
            // it if it works. The lock makes concurrent readers wait for the first one and
            // then use the key it adopted.
            do { try await derivation.lock(cancellable: false) } catch {}
            defer { derivation.unlock() }
            let latest = self.current.withLock { $0 }
            if parsed.header == latest.header {
                return try open(parsed, key: latest.key)
            }
            let key = try await Self.deriveKey(passphrase: passphrase, header: parsed.header, path: path)
            derivationCount.withLock { $0 += 1 }
            let credentials = try open(parsed, key: key)
            self.current.withLock { $0 = CurrentKey(header: parsed.header, key: key) }
            return credentials
        case (.none, _?):
            throw decryptionFailed("; it says it was encrypted with a key, and this store was opened with a passphrase")
        case (.argon2id, nil):
            throw decryptionFailed("; it says it was encrypted with a passphrase, and this store was opened with a key")
        }
    }

    /// The credentials sealed in `parsed`, opened with `key`.
    private func open(_ parsed: EncryptedFileFormat.Parsed, key: SecretBytes) throws(TokenStoreError) -> Credentials {
        guard var plaintext = Sodium.open(parsed.sealed, associatedData: parsed.headerBytes, nonce: parsed.nonce, key: key) else {
            throw decryptionFailed("")
        }
        defer { Sodium.wipe(&plaintext) }
        return try CredentialsFile.decode(plaintext, path: path)
    }

    private func decryptionFailed(_ detail: String) -> TokenStoreError {
        TokenStoreError(
            kind: .decryptionFailed, path: path,
            reason: "cannot be decrypted: wrong key or passphrase, or the file was modified\(detail)"
        )
    }

    /// The key for `header`'s salt and Argon2id parameters.
    static func deriveKey(passphrase: SecretBytes, header: EncryptedFileFormat.Header, path: String) async throws(TokenStoreError) -> SecretBytes {
        guard case .argon2id(let ops, let memory) = header.keyDerivation else {
            throw TokenStoreError(kind: .invalidKey, path: path, reason: "no key derivation in the header")
        }
        return try await Sodium.deriveKey(passphrase: passphrase, salt: header.salt, opsLimit: ops, memoryLimit: memory, path: path)
    }
}
#endif
