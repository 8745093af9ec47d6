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

    /// The bytes for `json`, bound to `binding` where the encoding can bind (the encrypted one:
    /// `binding` joins the associated data); the plain encoding has nothing to bind with.
    func encode(_ json: [UInt8], boundTo binding: [UInt8]) throws(TokenStoreError) -> [UInt8]

    /// The credentials in bytes encoded with ``encode(_:boundTo:)`` and the same binding, or,
    /// when `acceptingUnbound`, with ``encode(_:)``.
    func decode(_ bytes: [UInt8], boundTo binding: [UInt8], acceptingUnbound: Bool) async throws(TokenStoreError) -> Credentials
}

extension FileStoreCodec {
    func discard(_ json: inout [UInt8]) {}

    func encode(_ json: [UInt8], boundTo binding: [UInt8]) throws(TokenStoreError) -> [UInt8] {
        try encode(json)
    }

    func decode(_ bytes: [UInt8], boundTo binding: [UInt8], acceptingUnbound: Bool) async throws(TokenStoreError) -> Credentials {
        try await decode(bytes)
    }
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
