#if EncryptedTokenStore

/// The encoding of ``EncryptedFileTokenStore``: the credentials' JSON sealed with
/// XChaCha20-Poly1305 under the store's key, in the layout of ``EncryptedFileFormat``
/// (version 1; version 2, bound to a place, for ``CredentialsSealer/seal(_:boundTo:)``).
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
        seal(json, binding: nil)
    }

    /// Format version 2: the header, then `binding`, is the associated data.
    func encode(_ json: [UInt8], boundTo binding: [UInt8]) throws(TokenStoreError) -> [UInt8] {
        seal(json, binding: binding)
    }

    private func seal(_ json: [UInt8], binding: [UInt8]?) -> [UInt8] {
        let current = self.current.withLock { $0 }
        let header = current.header.bytes(version: binding == nil ? EncryptedFileFormat.version : EncryptedFileFormat.boundVersion)
        let nonce = Sodium.randomBytes(count: Sodium.nonceByteCount)
        let sealed = Sodium.seal(json, associatedData: header + (binding ?? []), nonce: nonce, key: current.key)
        return header + nonce + sealed
    }

    func discard(_ json: inout [UInt8]) {
        Sodium.wipe(&json)
    }

    func decode(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials {
        try await decode(bytes, binding: nil, acceptingUnbound: true)
    }

    /// Version 2 bytes bound to `binding`; version 1 bytes too when `acceptingUnbound`.
    func decode(_ bytes: [UInt8], boundTo binding: [UInt8], acceptingUnbound: Bool) async throws(TokenStoreError) -> Credentials {
        try await decode(bytes, binding: binding, acceptingUnbound: acceptingUnbound)
    }

    private func decode(_ bytes: [UInt8], binding: [UInt8]?, acceptingUnbound: Bool) async throws(TokenStoreError) -> Credentials {
        let parsed = try EncryptedFileFormat.parse(bytes, path: path)
        let associatedData: [UInt8]
        switch (parsed.version == EncryptedFileFormat.boundVersion, binding) {
        case (true, let binding?):
            associatedData = parsed.headerBytes + binding
        case (true, nil):
            throw TokenStoreError(
                kind: .unsupportedFormatVersion, path: path,
                reason: "has encrypted format version \(parsed.version): credentials sealed for one place (a database row's table and account), which only that place's store opens; a file store reads version \(EncryptedFileFormat.version)"
            )
        case (false, _?) where !acceptingUnbound:
            throw TokenStoreError(
                kind: .unsupportedFormatVersion, path: path,
                reason: "has encrypted format version \(parsed.version): sealed without being bound to its place, which is no longer accepted here (only version \(EncryptedFileFormat.boundVersion))"
            )
        case (false, _):
            associatedData = parsed.headerBytes
        }
        let bound = binding != nil && parsed.version == EncryptedFileFormat.boundVersion
        let current = self.current.withLock { $0 }
        switch (parsed.header.keyDerivation, passphrase) {
        case (.none, nil):
            return try open(parsed, associatedData: associatedData, key: current.key, bound: bound)
        case (.argon2id, let passphrase?):
            if parsed.header == current.header {
                return try open(parsed, associatedData: associatedData, key: current.key, bound: bound)
            }
            // Another process created the file with its own salt: derive its key once and keep
            // it if it works. The lock makes concurrent readers wait for the first one and
            // then use the key it adopted.
            do { try await derivation.lock(cancellable: false) } catch {}
            defer { derivation.unlock() }
            let latest = self.current.withLock { $0 }
            if parsed.header == latest.header {
                return try open(parsed, associatedData: associatedData, key: latest.key, bound: bound)
            }
            let key = try await Self.deriveKey(passphrase: passphrase, header: parsed.header, path: path)
            derivationCount.withLock { $0 += 1 }
            let credentials = try open(parsed, associatedData: associatedData, key: key, bound: bound)
            self.current.withLock { $0 = CurrentKey(header: parsed.header, key: key) }
            return credentials
        case (.none, _?):
            throw decryptionFailed("; it says it was encrypted with a key, and this store was opened with a passphrase")
        case (.argon2id, nil):
            throw decryptionFailed("; it says it was encrypted with a passphrase, and this store was opened with a key")
        }
    }

    /// The credentials sealed in `parsed`, opened with `key`.
    private func open(
        _ parsed: EncryptedFileFormat.Parsed, associatedData: [UInt8], key: SecretBytes, bound: Bool
    ) throws(TokenStoreError) -> Credentials {
        guard var plaintext = Sodium.open(parsed.sealed, associatedData: associatedData, nonce: parsed.nonce, key: key) else {
            throw bound
                ? TokenStoreError(
                    kind: .decryptionFailed, path: path,
                    reason: "cannot be decrypted: wrong key or passphrase, or the bytes were modified, or moved or copied here from another place (they open only where they were sealed)"
                )
                : decryptionFailed("")
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
