/// Turns ``Credentials`` into bytes and back in the formats of the file stores, for stores
/// that keep the bytes somewhere else (a database row, a cache, a secrets service).
///
/// - ``encrypted(key:location:allowsInsecurePermissions:existing:)``: exactly the bytes of an
///   `EncryptedFileTokenStore` file (XChaCha20-Poly1305 with a fresh random nonce per seal, the
///   versioned 42-byte header as associated data; `EncryptedFileFormat` in the source has the
///   layout), under a key from the same ``EncryptedFileTokenStore/KeySource`` a file store
///   takes. Bytes sealed here open in an encrypted file store with the same key, and back.
///   Needs the package trait `EncryptedTokenStore` (libsodium).
/// - ``plain(location:)``: the JSON a ``FileTokenStore`` writes, tokens in clear text; only when
///   asked for by name.
///
/// ``seal(_:boundTo:)`` binds the bytes to one place (a row's table and account, say): they then
/// open only there, through ``open(_:boundTo:acceptingUnbound:)``, and not in a file store.
///
/// ```swift
/// let sealer = try await CredentialsSealer.encrypted(key: .keyFile(keyURL), location: "db tokens/kim")
/// let bytes = try sealer.seal(credentials)          // store these anywhere
/// let back = try await sealer.open(bytes)           // == credentials
/// ```
///
/// Opening fails with a ``TokenStoreError`` naming `location`: ``TokenStoreError/Kind/decryptionFailed``
/// for a wrong key or passphrase or any modified byte, ``TokenStoreError/Kind/unreadable`` for
/// truncated or foreign bytes (plain JSON given to an encrypted sealer, say),
/// ``TokenStoreError/Kind/unsupportedFormatVersion`` for another version. No error, description
/// or mirror contains a token or key material. A sealer is safe to share between tasks.
public final class CredentialsSealer: Sendable, CustomStringConvertible {
    private let codec: any FileStoreCodec
    private let location: String
    private let keyDescription: String?

    private init(codec: any FileStoreCodec, location: String, keyDescription: String?) {
        self.codec = codec
        self.location = location
        self.keyDescription = keyDescription
    }

    /// A sealer that writes the plain JSON of ``FileTokenStore`` (`{"credentials":{…},"version":1}`):
    /// no encryption, whoever reads the bytes can use the tokens.
    /// - Parameter location: Where the bytes live, for error messages (no secret in it).
    public static func plain(location: String) -> CredentialsSealer {
        CredentialsSealer(codec: PlainFileCodec(path: location), location: location, keyDescription: nil)
    }

    #if EncryptedTokenStore
    /// A sealer that encrypts in the format of `EncryptedFileTokenStore`, obtaining the key now.
    ///
    /// - Parameters:
    ///   - key: Where the 32-byte key comes from, as for `EncryptedFileTokenStore`. A passphrase
    ///     is stretched with Argon2id here, once (slow on purpose); a missing key file is created
    ///     with 32 random bytes, mode 0600.
    ///   - location: Where the bytes live, for error messages (no secret in it).
    ///   - allowsInsecurePermissions: Read a key file that group or others can access instead of
    ///     refusing it with ``TokenStoreError/Kind/insecurePermissions``. Off by default.
    ///   - existing: For a passphrase: bytes already stored, whose salt and Argon2id parameters
    ///     are reused so that opening them needs no second derivation. Bytes sealed by another
    ///     sealer with another salt still open: their key is derived once and then kept.
    /// - Throws: ``TokenStoreError`` with kind ``TokenStoreError/Kind/invalidKey`` (empty
    ///   passphrase, a raw key or key file not 32 bytes, parameters out of range, libsodium
    ///   failure), ``TokenStoreError/Kind/insecurePermissions`` or ``TokenStoreError/Kind/io``
    ///   (the key file).
    public static func encrypted(
        key: EncryptedFileTokenStore.KeySource,
        location: String,
        allowsInsecurePermissions: Bool = false,
        existing: [UInt8]? = nil
    ) async throws(TokenStoreError) -> CredentialsSealer {
        let codec = try await EncryptedFileCodec.make(
            key: key, path: location, allowsInsecurePermissions: allowsInsecurePermissions, existingBytes: { existing }
        )
        return CredentialsSealer(codec: codec, location: location, keyDescription: key.description)
    }
    #endif

    /// Whether the bytes are encrypted (`false` only for ``plain(location:)``).
    package var isEncrypted: Bool { keyDescription != nil }

    /// The bytes for `credentials`: encrypted with a fresh nonce, or the plain JSON.
    /// - Throws: ``TokenStoreError/Kind/invalidCredentials`` when they cannot be written as JSON
    ///   (an expiry date that is not finite).
    public func seal(_ credentials: Credentials) throws(TokenStoreError) -> [UInt8] {
        var json = try CredentialsFile.encode(credentials, path: location)
        defer { codec.discard(&json) }
        return try codec.encode(json)
    }

    /// The credentials in `bytes`.
    /// - Throws: ``TokenStoreError`` naming the location: ``TokenStoreError/Kind/decryptionFailed``,
    ///   ``TokenStoreError/Kind/unreadable`` or ``TokenStoreError/Kind/unsupportedFormatVersion``
    ///   (also for bytes sealed with ``seal(_:boundTo:)``, which open only with their binding).
    public func open(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials {
        try await codec.decode(bytes)
    }

    /// The bytes for `credentials`, bound to `binding`: a string naming the one place they
    /// belong (the PostgreSQL store's is its table and account). They open only through
    /// ``open(_:boundTo:acceptingUnbound:)`` with the same binding and key, so bytes moved or
    /// copied to another place are refused as ``TokenStoreError/Kind/decryptionFailed``, like
    /// modified ones.
    ///
    /// Encrypted bytes are format version 2: version 1 with `binding` (its UTF-8 bytes) after
    /// the header in the associated data. The binding itself is not stored. A plain sealer has
    /// nothing to bind with: it writes the same JSON as ``seal(_:)``.
    /// - Throws: ``TokenStoreError/Kind/invalidCredentials`` as ``seal(_:)``.
    public func seal(_ credentials: Credentials, boundTo binding: String) throws(TokenStoreError) -> [UInt8] {
        var json = try CredentialsFile.encode(credentials, path: location)
        defer { codec.discard(&json) }
        return try codec.encode(json, boundTo: Array(binding.utf8))
    }

    /// The credentials in bytes sealed with ``seal(_:boundTo:)`` and the same `binding`.
    ///
    /// - Parameters:
    ///   - bytes: The sealed bytes.
    ///   - binding: The place they must have been sealed for.
    ///   - acceptingUnbound: Whether bytes sealed by ``seal(_:)`` (encrypted format version 1,
    ///     bound to nothing) open too: what was stored before binding was used. Such bytes can
    ///     be moved between places unnoticed; refuse them once every place has been sealed again.
    /// - Throws: ``TokenStoreError`` naming the location: ``TokenStoreError/Kind/decryptionFailed``
    ///   for a wrong key, modified bytes, or bytes bound to another place;
    ///   ``TokenStoreError/Kind/unsupportedFormatVersion`` for unbound bytes when not
    ///   `acceptingUnbound`, or another version; ``TokenStoreError/Kind/unreadable``.
    public func open(_ bytes: [UInt8], boundTo binding: String, acceptingUnbound: Bool) async throws(TokenStoreError) -> Credentials {
        try await codec.decode(bytes, boundTo: Array(binding.utf8), acceptingUnbound: acceptingUnbound)
    }

    /// `CredentialsSealer(plain)` or `CredentialsSealer(encrypted, key: <kind of key>)`; never key material.
    public var description: String {
        keyDescription.map { "CredentialsSealer(encrypted, key: \($0))" } ?? "CredentialsSealer(plain)"
    }
}
