/// What every file store does the same way, whatever its encoding: load, save and clear
/// following the file discipline of ``StoreFile`` (atomic replace, unreadable files moved
/// aside and never overwritten) inside the exclusive section on `<file>.lock`.
///
/// ``FileTokenStore`` and `EncryptedFileTokenStore` are this core with another
/// ``FileStoreCodec``.
///
/// A load costs one `stat` when the file has not changed: the core keeps the credentials it
/// last decoded or wrote with the ``FileIdentity`` of the file version they came from. When a
/// `stat` of the path gives the same identity, and that version was written clearly before it
/// was read (``FileIdentity/isSettled(observedAt:)``), the kept credentials are returned
/// without opening the file. Any write, by this process or another, renames a new file into
/// place, so the next load sees a new identity and reads it; bytes identical to the kept ones
/// are not decoded again (decoding, and for the encrypted store decryption, is what a load
/// used to cost).
struct FileStoreCore<Codec: FileStoreCodec>: Sendable {
    let file: StoreFile
    let codec: Codec
    /// The last file contents decoded or written, and their credentials.
    private let cache = LockedValue<Cached?>(nil)

    /// The credentials of one version of the file.
    private struct Cached: Sendable {
        var bytes: [UInt8]
        var credentials: Credentials
        /// The version they were read from, when it may be trusted by its identity alone;
        /// `nil` after a write by this store (the next load reads the file once).
        var settledIdentity: FileIdentity?
    }

    init(file: StoreFile, codec: Codec) {
        self.file = file
        self.codec = codec
    }

    /// The credentials; `nil` when the file does not exist. The file is left as it is.
    func load() async throws(TokenStoreError) -> Credentials? {
        let cached = cache.withLock { $0 }
        if let cached, let identity = cached.settledIdentity {
            switch FileIdentity.lookUp(file.path) {
            case .found(identity): return cached.credentials
            case .missing:
                cache.withLock { $0 = nil }
                return nil
            case .found, .unknown: break
            }
        }
        // Taken before the read, so a version written during the read is never trusted.
        let observedAt = FileIdentity.Timestamp.now()
        guard let (bytes, identity) = try file.readWithIdentity() else {
            cache.withLock { $0 = nil }
            return nil
        }
        let settled = identity.isSettled(observedAt: observedAt) ? identity : nil
        if let cached, cached.bytes == bytes {
            cache.withLock { $0 = Cached(bytes: bytes, credentials: cached.credentials, settledIdentity: settled) }
            return cached.credentials
        }
        let credentials = try await codec.decode(bytes)
        cache.withLock { $0 = Cached(bytes: bytes, credentials: credentials, settledIdentity: settled) }
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
            cache.withLock { $0 = Cached(bytes: bytes, credentials: credentials, settledIdentity: nil) }
        }
    }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    func clear() async throws(TokenStoreError) {
        let (file, codec) = (self.file, self.codec)
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            let found = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            cache.withLock { $0 = nil }
            if found == .readable {
                try file.remove()
            }
        }
    }

    /// Moves the file aside, inside the exclusive section, when it exists and cannot be loaded
    /// (the files ``save(_:)`` and ``clear()`` move aside); returns where it went, or `nil`
    /// when there is no file or it loads (it is then left in place).
    func moveAsideIfUnreadable() async throws(TokenStoreError) -> String? {
        let (file, codec) = (self.file, self.codec)
        return try await file.withExclusiveAccess { () async throws(TokenStoreError) -> String? in
            let found = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            guard case .movedAside(let destination) = found else { return nil }
            cache.withLock { $0 = nil }
            return destination
        }
    }

    /// Runs `body` inside the exclusive section; cancelling the task stops the wait for the lock.
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await file.withExclusiveAccess(cancellable: true, body)
    }
}
