/// What every file store does the same way, whatever its encoding: load, save and clear
/// following the file discipline of ``StoreFile`` (atomic replace, unreadable files moved
/// aside and never overwritten) inside the exclusive section on `<file>.lock`.
///
/// ``FileTokenStore`` and `EncryptedFileTokenStore` are this core with another
/// ``FileStoreCodec``.
///
/// Decoding (JSON, and for the encrypted store decryption) is most of what a load costs, so
/// the core keeps the last file it decoded or wrote: a load still reads the file (a write by
/// another process is seen at once), but bytes identical to the last ones give the credentials
/// decoded from them without decoding again.
struct FileStoreCore<Codec: FileStoreCodec>: Sendable {
    let file: StoreFile
    let codec: Codec
    /// The last file contents decoded or written, and their credentials.
    private let cache = LockedValue<(bytes: [UInt8], credentials: Credentials)?>(nil)

    init(file: StoreFile, codec: Codec) {
        self.file = file
        self.codec = codec
    }

    /// The credentials; `nil` when the file does not exist. The file is left as it is.
    func load() async throws(TokenStoreError) -> Credentials? {
        guard let bytes = try file.read() else {
            cache.withLock { $0 = nil }
            return nil
        }
        if let cached = cache.withLock({ $0 }), cached.bytes == bytes {
            return cached.credentials
        }
        let credentials = try await codec.decode(bytes)
        cache.withLock { $0 = (bytes, credentials) }
        return credentials
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
            cache.withLock { $0 = nil }
            try file.replace(with: bytes)
            cache.withLock { $0 = (bytes, credentials) }
        }
    }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    func clear() async throws(TokenStoreError) {
        let (file, codec) = (self.file, self.codec)
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            let readable = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            cache.withLock { $0 = nil }
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
