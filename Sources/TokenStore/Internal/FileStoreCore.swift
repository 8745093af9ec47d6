/// What every file store does the same way, whatever its encoding: load, save and clear
/// following the file discipline of ``StoreFile`` (atomic replace, unreadable files moved
/// aside and never overwritten) inside the exclusive section on `<file>.lock`.
///
/// ``FileTokenStore`` and `EncryptedFileTokenStore` are this core with another
/// ``FileStoreCodec``.
///
/// The core keeps the credentials it last decoded or wrote with the ``FileIdentity`` of the
/// file version they came from, and a load returns them without opening the file while that
/// version is known to be current:
/// - **Inside the exclusive section**, a load always looks: one `stat` of the path. An
///   unchanged identity of a version written clearly before it was read
///   (``FileIdentity/isSettled(observedAt:)``) returns the kept credentials; anything else
///   reads the file. Any write, by this process or another, renames a new file into place, so
///   the next look sees a new identity. This is the re-read that makes a refresh happen once
///   between processes.
/// - **Outside it** (a call's load of its access token), a look is trusted for
///   ``FileTokenStore/Options/changeCheckInterval`` (100 ms by default) while no store of this
///   process wrote the file (``LocalWriteCount``): such a load costs no system call. Another
///   process's write shows within that interval; a call that meanwhile sends a token it
///   retired is refused, and the refresh path re-reads the file inside the section.
///
/// Bytes identical to the kept ones are not decoded again (decoding, and for the encrypted
/// store decryption, is what a load used to cost).
struct FileStoreCore<Codec: FileStoreCodec>: Sendable {
    let file: StoreFile
    let codec: Codec
    /// The last file contents decoded or written, and their credentials.
    private let cache = LockedValue<Cached?>(nil)
    /// The writes of this process's stores to the file.
    private let localWrites: LocalWriteCount

    /// The credentials of one version of the file.
    private struct Cached: Sendable {
        var bytes: [UInt8]
        var credentials: Credentials
        /// The version they were read from, when it may be trusted by its identity alone;
        /// `nil` after a write by this store (the next load reads the file once).
        var settledIdentity: FileIdentity?
        /// When the file was last seen to hold this version: the moment taken before that
        /// look (a `stat` or the read), and the local write count then.
        var checkedAt: ContinuousClock.Instant
        var localWritesWhenChecked: UInt64
    }

    init(file: StoreFile, codec: Codec) {
        self.file = file
        self.codec = codec
        localWrites = LocalWriteCount.forFile(file.path)
    }

    /// The credentials; `nil` when the file does not exist. The file is left as it is.
    func load() async throws(TokenStoreError) -> Credentials? {
        // Both taken before the look, so a write during it shows at the next load.
        let writes = localWrites.value
        let checkedAt = ContinuousClock.now
        let cached = cache.withLock { $0 }
        if let cached, let identity = cached.settledIdentity {
            if cached.localWritesWhenChecked == writes,
               checkedAt - cached.checkedAt < file.options.changeCheckInterval,
               !ExclusiveSection.isHeld(file.section.key) {
                return cached.credentials
            }
            switch FileIdentity.lookUp(file.path) {
            case .found(identity):
                cache.withLock { current in
                    guard current?.settledIdentity == identity else { return }
                    current?.checkedAt = checkedAt
                    current?.localWritesWhenChecked = writes
                }
                return cached.credentials
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
        let credentials: Credentials
        if let cached, cached.bytes == bytes {
            credentials = cached.credentials
        } else {
            credentials = try await codec.decode(bytes)
        }
        cache.withLock {
            $0 = Cached(
                bytes: bytes, credentials: credentials, settledIdentity: settled,
                checkedAt: checkedAt, localWritesWhenChecked: writes)
        }
        return credentials
    }

    /// Replaces the file atomically. An existing file that cannot be loaded is first moved
    /// aside to `<name>.unreadable-<timestamp>`.
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        var json = try CredentialsFile.encode(credentials, path: file.path)
        defer { codec.discard(&json) }
        let (file, codec) = (self.file, self.codec)
        let localWrites = self.localWrites
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            defer { localWrites.increment() }
            _ = try await file.moveAsideIfUnreadable { bytes throws(TokenStoreError) in
                _ = try await codec.decode(bytes)
            }
            let bytes = try codec.encode(json)
            file.removeStaleTemporaryFiles()
            cache.withLock { $0 = nil }
            try file.replace(with: bytes)
            cache.withLock {
                $0 = Cached(
                    bytes: bytes, credentials: credentials, settledIdentity: nil,
                    checkedAt: .now, localWritesWhenChecked: localWrites.value)
            }
        }
    }

    /// Deletes the file; an existing file that cannot be loaded is moved aside instead.
    func clear() async throws(TokenStoreError) {
        let (file, codec, localWrites) = (self.file, self.codec, self.localWrites)
        try await file.withExclusiveAccess { () async throws(TokenStoreError) in
            defer { localWrites.increment() }
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
        let (file, codec, localWrites) = (self.file, self.codec, self.localWrites)
        return try await file.withExclusiveAccess { () async throws(TokenStoreError) -> String? in
            defer { localWrites.increment() }
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
