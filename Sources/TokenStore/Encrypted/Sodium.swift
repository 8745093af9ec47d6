#if EncryptedTokenStore
import CSodium
import Foundation

/// The libsodium calls the encrypted store makes, with its sizes and limits.
enum Sodium {
    /// Whether `sodium_init()` succeeded; it runs once, on first use.
    private static let isReady: Bool = sodium_init() >= 0

    /// Makes sure libsodium is initialised.
    static func ensureReady() throws(TokenStoreError) {
        guard isReady else {
            throw TokenStoreError(kind: .invalidKey, reason: "libsodium could not be initialised")
        }
    }

    /// XChaCha20-Poly1305 key size: 32 bytes.
    static let keyByteCount = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())
    /// XChaCha20-Poly1305 nonce size: 24 bytes.
    static let nonceByteCount = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    /// Poly1305 tag size: 16 bytes.
    static let tagByteCount = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
    /// Argon2id salt size: 16 bytes.
    static let saltByteCount = Int(crypto_pwhash_saltbytes())

    /// Fills a new array with `count` random bytes.
    static func randomBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    /// Overwrites `bytes` with zeros in a way the compiler cannot skip.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }

    /// Encrypts `plaintext` (combined mode: ciphertext followed by the tag).
    static func seal(_ plaintext: [UInt8], associatedData: [UInt8], nonce: [UInt8], key: SecretBytes) -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        var sealedCount: UInt64 = 0
        key.withUnsafeBytes { key in
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                &sealed, &sealedCount,
                plaintext, UInt64(plaintext.count),
                associatedData, UInt64(associatedData.count),
                nil, nonce, key.bindMemory(to: UInt8.self).baseAddress!
            )
        }
        return sealed
    }

    /// Decrypts and verifies `sealed`; `nil` when the tag does not match (wrong key, or any
    /// byte of the associated data, nonce, ciphertext or tag modified).
    static func open(_ sealed: ArraySlice<UInt8>, associatedData: [UInt8], nonce: ArraySlice<UInt8>, key: SecretBytes) -> [UInt8]? {
        guard sealed.count >= tagByteCount, nonce.count == nonceByteCount else { return nil }
        var plaintext = [UInt8](repeating: 0, count: sealed.count - tagByteCount)
        var plaintextCount: UInt64 = 0
        let sealed = Array(sealed)
        let nonce = Array(nonce)
        let result = key.withUnsafeBytes { key in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                &plaintext, &plaintextCount, nil,
                sealed, UInt64(sealed.count),
                associatedData, UInt64(associatedData.count),
                nonce, key.bindMemory(to: UInt8.self).baseAddress!
            )
        }
        guard result == 0 else {
            wipe(&plaintext)
            return nil
        }
        return plaintext
    }

    /// Derives a 32-byte key from `passphrase` with Argon2id (`crypto_pwhash`). This is the
    /// slow, memory-hard step; it runs on a Dispatch thread so that it does not hold one of
    /// Swift concurrency's few cooperative threads.
    ///
    /// The key comes back through a lock rather than as the continuation's value: both order
    /// the Dispatch thread's writes before the task's reads, but ThreadSanitizer on Linux sees
    /// only the lock (through the continuation alone, it reported the key's fields, written
    /// here and read by the next save, as a data race; `scripts/sanitize`).
    static func deriveKey(
        passphrase: SecretBytes, salt: [UInt8], opsLimit: UInt64, memoryLimit: UInt64, path: String?
    ) async throws(TokenStoreError) -> SecretBytes {
        let handoff = LockedValue<Result<SecretBytes, TokenStoreError>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                let derived = deriveKeyNow(
                    passphrase: passphrase, salt: salt, opsLimit: opsLimit, memoryLimit: memoryLimit, path: path
                )
                handoff.withLock { $0 = derived }
                continuation.resume()
            }
        }
        guard let derived = handoff.withLock({ $0 }) else {
            // Never: the continuation resumes only after the handoff was written.
            throw TokenStoreError(kind: .invalidKey, path: path, reason: "the key derivation returned nothing")
        }
        return try derived.get()
    }

    private static func deriveKeyNow(
        passphrase: SecretBytes, salt: [UInt8], opsLimit: UInt64, memoryLimit: UInt64, path: String?
    ) -> Result<SecretBytes, TokenStoreError> {
        let key = SecretBytes(count: keyByteCount) { output in
            passphrase.withUnsafeBytes { passphrase in
                crypto_pwhash(
                    output.bindMemory(to: UInt8.self).baseAddress!, UInt64(output.count),
                    passphrase.bindMemory(to: CChar.self).baseAddress!, UInt64(passphrase.count),
                    salt, opsLimit, Int(memoryLimit), crypto_pwhash_alg_argon2id13()
                ) == 0
            }
        }
        guard let key else {
            return .failure(TokenStoreError(
                kind: .invalidKey, path: path,
                reason: "Argon2id could not derive the key (out of memory for memlimit \(memoryLimit) bytes?)"
            ))
        }
        return .success(key)
    }
}
#endif
