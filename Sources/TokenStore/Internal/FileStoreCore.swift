/// What every file store does the same way, whatever its encoding: load, save and clear
/// following the file discipline of ``StoreFile`` (atomic replace, unreadable files moved
/// aside and never overwritten) inside the exclusive section on `<file>.lock`.
///
/// ``FileTokenStore`` and `EncryptedFileTokenStore` are this core with another
/// ``FileStoreCodec``.
struct FileStoreCore<Codec: FileStoreCodec>: Sendable {
    let file: StoreFile
    let codec: Codec

    init(file: StoreFile, codec: Codec) {
        self.file = file
        self.codec = codec
    }

    /// The credentials; `nil` when the file does not exist. The file is left as it is.
    func load() async throws(TokenStoreError) -> Credentials? {
        guard let bytes = try file.read() else { return nil }
        return try await codec.decode(bytes)
    }

    /// Replaces the file atomically. An existing file that cannot be loaded is first moved
    /// aside to `<name>.unreadable-<timestamp>`.
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        var json = try CredentialsFile.encode(credentials, path: file.path)
        defer { codec.discard(&json) }
        let (file, codec) = (self.file, self.codec)
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            _ = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            let bytes = try codec.encode(json)
            file.removeStaleTemporaryFiles()
            try file.replace(with: bytes)
        }
    }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    func clear() async throws(TokenStoreError) {
        let (file, codec) = (self.file, self.codec)
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            let readable = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            if readable {
                try file.remove()
            }
        }
    }

    /// Runs `body` inside the exclusive section; cancelling the task stops the wait for the lock.
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await file.withExclusiveAccess(cancellable: true, body)
    }
}
