/// How a file store turns credentials into the bytes of its file and back: the one thing
/// in which the plain and the encrypted file store differ (see ``FileStoreCore``).
protocol FileStoreCodec: Sendable {
    /// The file's bytes for `json`, the credentials as `CredentialsFile` writes them.
    /// Called inside the exclusive section, after an existing file was checked with ``decode(_:)``.
    func encode(_ json: [UInt8]) throws(TokenStoreError) -> [UInt8]

    /// The credentials in the file's `bytes`, or an error naming the file and what is wrong.
    func decode(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials

    /// Forgets a copy of the plaintext JSON once it has been encoded.
    func discard(_ json: inout [UInt8])
}

extension FileStoreCodec {
    func discard(_ json: inout [UInt8]) {}
}

/// The plain JSON file of ``FileTokenStore``: the bytes are the JSON.
struct PlainFileCodec: FileStoreCodec {
    /// The file, for error messages.
    let path: String

    func encode(_ json: [UInt8]) throws(TokenStoreError) -> [UInt8] { json }

    func decode(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials {
        try CredentialsFile.decode(bytes, path: path)
    }
}
