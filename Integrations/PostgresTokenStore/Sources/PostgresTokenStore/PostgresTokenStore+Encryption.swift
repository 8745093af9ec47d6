public import TokenStore

extension PostgresTokenStore {
    /// How credentials are turned into the bytes of a row, before they leave the process.
    public enum Encryption: Sendable {
        /// Encrypted exactly like an `EncryptedFileTokenStore` file (XChaCha20-Poly1305, fresh
        /// nonce per save, versioned header as associated data) under a key from a passphrase,
        /// a key file or raw key bytes. Every machine sharing the rows needs the same key.
        case key(EncryptedFileTokenStore.KeySource)
        /// Bytes made by a sealer you built (``CredentialsSealer``), plain or encrypted.
        case sealer(CredentialsSealer)
        /// No encryption: the plain JSON of `FileTokenStore`, readable by anyone who can read
        /// the table or its backups. Only when asked for by name.
        case plaintext
    }
}
