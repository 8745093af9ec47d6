public import PostgresNIO
public import TokenStore

/// Keeps credentials in PostgreSQL, one row per account, so that processes on several
/// machines share one session: the store for a fleet of workers or servers.
///
/// ```swift
/// let store = try await PostgresTokenStore(url: databaseURL, account: "kim", key: .keyFile(keyURL))
/// let service = RepositoryService(server: server, tokenStore: store)
/// // …
/// await store.shutdown()                      // when the program ends
/// ```
///
/// **Rows.** The table (``Options/table``, default `app_token_store`) has `account text PRIMARY
/// KEY, credentials bytea, updated_at timestamptz`; several accounts (several stores) share it.
/// When it is missing (a catalog lookup, `to_regclass`, says so) it is created on first use
/// with `CREATE TABLE IF NOT EXISTS` (idempotent, safe when several processes start at once), or
/// by ``migrate()`` when ``Options/migratesAutomatically`` is off. A table that exists is never
/// touched by DDL, so a read-only database (a hot standby, `default_transaction_read_only`)
/// serves loads; its writes fail with ``TokenStoreError/Kind/readOnly``.
/// A save is one statement (`INSERT … ON CONFLICT DO UPDATE`): a reader sees the old row or the
/// new one, never a mix, whatever happens to the connection.
///
/// **Encryption.** With ``Encryption/key(_:)`` the credentials are encrypted in this process,
/// before they reach the database, in the encrypted file format (XChaCha20-Poly1305, fresh
/// nonce per save, versioned header as associated data; see ``CredentialsSealer``), under a key
/// from the same key sources. The row holds no token text. A wrong key or a modified row is
/// ``TokenStoreError/Kind/decryptionFailed`` from ``load()``, and the row is left as it is.
/// ``Encryption/plaintext`` stores the plain JSON and must be asked for by name.
///
/// **Rows are bound to their table and account.** Each row is sealed with
/// ``CredentialsSealer/seal(_:boundTo:)`` (format version 2), the table's name and the account
/// in the associated data: a row copied from another account, or from another table under the
/// same key, is refused as ``TokenStoreError/Kind/decryptionFailed`` like a modified one, so
/// write access to the table without the key cannot make this account's processes act as
/// another account's member. Rows written before binding (version 1) are read while
/// ``Options/acceptsUnboundRows`` is on and sealed bound by the next save. A plain row
/// (``Encryption/plaintext``) is bound to nothing.
///
/// **What binding cannot do: roll-back.** An older row of the same account (a backup, or a copy
/// kept by someone who can write the table) is authentic and is accepted: nothing in the database
/// can prove which of two authentic rows is the newer. The server notices instead, with the
/// reference server's refresh-token reuse detection: the older row's refresh token was already
/// used, so the first refresh with it revokes the whole session, newer tokens included (unless it
/// is a retry within the server's short grace period for a lost response, before the newer token
/// was ever used). Until then its access token works if it has not expired. So a rolled-back row
/// signs the account out; it never continues a session for long, nor starts another account's.
///
/// **Unreadable rows** are never overwritten: ``save(_:)`` and ``clear()`` first move a row
/// that cannot be read (wrong key, modified, foreign) to `<table>_unreadable`, in the same
/// statement that writes the new row, as the file stores move such a file aside.
///
/// **Exclusive section.** ``withExclusiveAccess(_:)`` holds a PostgreSQL advisory lock for
/// this table and account on a connection dedicated to the section (see `AdvisoryLock` in the
/// source for why not `SELECT … FOR UPDATE`): no other process on any machine enters the
/// section at the same time, and PostgreSQL releases the lock if the holder's connection
/// drops. Inside it, ``load()``, ``save(_:)`` and ``clear()`` use that same connection, and a
/// nested ``withExclusiveAccess(_:)`` from the same task tree runs directly, as with the file
/// stores. Tasks using one store wait for each other in memory first, so a store never holds
/// more than one connection waiting for the lock; two stores of one process compete through
/// PostgreSQL like two processes.
///
/// **Failures.** A database that is down, restarting, refusing connections or out of
/// connections gives the transient ``TokenStoreError/Kind/unavailable`` (``TokenStoreError/isTransient``):
/// nothing was written, the stored credentials are intact; try again. A lock held past
/// ``Options/lockTimeout`` is ``TokenStoreError/Kind/lockFailed``; a refused login or permission
/// ``TokenStoreError/Kind/database``, not transient. (The pool retries a refused login until
/// ``Options/connectionTimeout``; a store opened from a URL then asks once, on a connection of
/// its own, whether the login was refused: a wrong password, an unknown user or database, no
/// `pg_hba.conf` entry.) Errors name the database (user, host, port, database; never
/// the password), the table and the account, never a token.
///
/// **Connections and their lifecycle.**
/// - ``init(url:account:key:options:)``, ``init(url:account:encryption:options:)`` and
///   ``init(configuration:account:encryption:options:)`` make a `PostgresClient` (a connection
///   pool) that the store owns and runs in a task of its own from the start. Call
///   ``shutdown()`` when done; dropping the store also stops it.
/// - ``init(client:account:encryption:options:)`` uses your `PostgresClient`: you run it
///   (`await client.run()` in a long-lived task, or a ServiceLifecycle `ServiceGroup`) for as long
///   as the store is used, and stop it yourself. Calls made while it does not run fail with
///   ``TokenStoreError/Kind/unavailable`` after ``Options/connectionTimeout``.
///
/// A section's lock connection comes from the same pool, so give the pool at least two
/// connections (the default is 20).
public final class PostgresTokenStore: TokenStore, CustomStringConvertible {
    /// The account whose row this store reads and writes.
    public let account: String
    /// The options the store was made with.
    public let options: Options

    private let client: PostgresClient
    /// Set when the store made its client from a URL: tells a refused login from a database that is down.
    private let loginProbe: LoginProbe?
    private let runTask: Task<Void, Never>?
    private let sealer: CredentialsSealer
    private let tables: TableNames
    private let lockKey: Int64
    /// Identifies the section in this process: the database (or the caller's client), table and account.
    private let sectionKey: String
    /// `postgres://user@host:port/db, table t, account a`: for errors and the description.
    private let location: String
    /// `postgres://user@host:port/db, table t_unreadable`: where rows moved aside go.
    private let asideLocation: String
    /// What each row's seal is bound to (``RowBinding``).
    private let binding: String
    private let migrated = LockedValue(false)
    /// Tasks using this store wait here, in memory, before one of them polls PostgreSQL.
    private let processLock = AsyncLock()

    /// Opens the store for `account` in the database at `url`, with credentials encrypted under `key`.
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database`, optionally `?sslmode=disable|prefer|require`
    ///     (default `prefer`). The password is used to connect and never printed.
    ///   - account: The row's name: one row per account in the table.
    ///   - key: Where the 32-byte key comes from, as for `EncryptedFileTokenStore`; every machine
    ///     sharing the row needs the same key (a passphrase is stretched with Argon2id here).
    ///   - options: Table, timeouts, migration.
    /// - Throws: ``TokenStoreError``: ``TokenStoreError/Kind/invalidConfiguration`` for a URL it
    ///   cannot read or an empty account; the key source's errors (``TokenStoreError/Kind/invalidKey``, …).
    ///   Nothing is connected yet: the first call connects (and creates the table).
    public convenience init(
        url: String, account: String, key: EncryptedFileTokenStore.KeySource, options: Options = Options()
    ) async throws(TokenStoreError) {
        try await self.init(url: url, account: account, encryption: .key(key), options: options)
    }

    /// Opens the store for `account` in the database at `url`, encrypting as `encryption` says
    /// (``Encryption/plaintext`` only when you mean it). Parameters and errors as
    /// ``init(url:account:key:options:)``.
    public convenience init(
        url: String, account: String, encryption: Encryption, options: Options = Options()
    ) async throws(TokenStoreError) {
        let parsed = try DatabaseURL(url)
        try await self.init(
            client: PostgresClient(configuration: parsed.configuration), ownsClient: true,
            database: parsed.redacted, account: account, encryption: encryption, options: options,
            loginProbe: parsed.loginProbe
        )
    }

    /// Opens the store with a client it makes from `configuration` and owns (see ``shutdown()``).
    /// Parameters and errors as ``init(url:account:key:options:)``.
    public convenience init(
        configuration: PostgresClient.Configuration, account: String, encryption: Encryption, options: Options = Options()
    ) async throws(TokenStoreError) {
        try await self.init(
            client: PostgresClient(configuration: configuration), ownsClient: true,
            database: DatabaseURL.redacted(configuration), account: account, encryption: encryption, options: options
        )
    }

    /// Opens the store over your `PostgresClient`, which you run and stop yourself (it must run
    /// while the store is used). Parameters and errors as ``init(url:account:key:options:)``.
    public convenience init(
        client: PostgresClient, account: String, encryption: Encryption, options: Options = Options()
    ) async throws(TokenStoreError) {
        try await self.init(
            client: client, ownsClient: false, database: "postgres (PostgresClient \(ObjectIdentifier(client).hashValue))",
            account: account, encryption: encryption, options: options
        )
    }

    private init(
        client: PostgresClient, ownsClient: Bool, database: String,
        account: String, encryption: Encryption, options: Options, loginProbe: LoginProbe? = nil
    ) async throws(TokenStoreError) {
        guard !account.isEmpty else {
            throw TokenStoreError(kind: .invalidConfiguration, reason: "the account name is empty")
        }
        let tables = TableNames(table: options.table, schema: options.schema)
        let location = "\(database), table \(tables.display), account \(account)"
        switch encryption {
        case .key(let key):
            sealer = try await CredentialsSealer.encrypted(
                key: key, location: location, allowsInsecurePermissions: options.allowsInsecureKeyFile
            )
        case .sealer(let given):
            sealer = given
        case .plaintext:
            sealer = CredentialsSealer.plain(location: location)
        }
        self.client = client
        self.loginProbe = loginProbe
        self.account = account
        self.options = options
        self.tables = tables
        self.location = location
        asideLocation = "\(database), table \(tables.unreadableDisplay)"
        binding = RowBinding.string(table: options.table, account: account)
        lockKey = AdvisoryLockKey.make(table: tables.display, account: account)
        sectionKey = "\(database)|\(tables.display)|\(account)"
        runTask = ownsClient ? Task { await client.run() } : nil
    }

    deinit {
        runTask?.cancel()
    }

    /// Stops the client the store owns (made from a URL or a configuration) and waits until its
    /// connections are closed; calls made afterwards fail with ``TokenStoreError/Kind/unavailable``.
    /// Does nothing for a client you passed in: stop that one yourself.
    public func shutdown() async {
        runTask?.cancel()
        await runTask?.value
    }

    /// Creates the tables that are missing (`CREATE TABLE IF NOT EXISTS`, after a catalog lookup:
    /// a table that exists is not touched); safe to run any number of times, from several
    /// processes at once. The store does this by itself before its first use unless
    /// ``Options/migratesAutomatically`` is off.
    /// - Throws: ``TokenStoreError``: ``TokenStoreError/Kind/unavailable``,
    ///   ``TokenStoreError/Kind/readOnly`` (a table is missing and the database is read-only) or
    ///   ``TokenStoreError/Kind/database`` (no permission to create tables, say).
    public func migrate() async throws(TokenStoreError) {
        try await perform("creating the tables", migrating: false) { connection in
            try await self.migrate(on: connection)
        }
    }

    /// Reads and decrypts this account's credentials; `nil` when it has no row. Works on a
    /// read-only database once the tables exist.
    /// - Throws: ``TokenStoreError``: ``TokenStoreError/Kind/decryptionFailed`` (wrong key, a
    ///   modified row, or one copied from another account or table),
    ///   ``TokenStoreError/Kind/unsupportedFormatVersion`` (an unbound row while
    ///   ``Options/acceptsUnboundRows`` is off), ``TokenStoreError/Kind/unreadable``,
    ///   ``TokenStoreError/Kind/unavailable`` (no connection), ``TokenStoreError/Kind/database``.
    ///   The row is left as it is.
    public func load() async throws(TokenStoreError) -> Credentials? {
        let bytes = try await perform("reading the credentials") { connection in
            try await self.fetch(on: connection)
        }
        guard let bytes else { return nil }
        return try await open(bytes)
    }

    /// Encrypts the credentials and replaces this account's row in one statement, inside the
    /// exclusive section (waiting for another holder as ``withExclusiveAccess(_:)`` does, but
    /// not stopped by cancelling the task: a save that started finishes). A row that cannot be
    /// read is first moved to `<table>_unreadable`, in the same statement.
    /// - Throws: ``TokenStoreError``; on ``TokenStoreError/Kind/unavailable`` the row holds the
    ///   old or the new credentials, never a mix; on ``TokenStoreError/Kind/readOnly`` (a
    ///   read-only database) nothing was changed.
    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        let bytes = try sealer.seal(credentials, boundTo: binding)
        try await shielded("saving the credentials") { connection in
            var binds = PostgresBindings()
            binds.append(self.account)
            binds.append(ByteBuffer(bytes: bytes))
            if let unreadable = try await self.unreadableRow(on: connection) {
                binds.append(ByteBuffer(bytes: unreadable))
                try await self.run(self.tables.moveAsideAndUpsert, binds, on: connection)
            } else {
                try await self.run(self.tables.upsert, binds, on: connection)
            }
        }
    }

    /// Deletes this account's row inside the exclusive section; a row that cannot be read is
    /// moved to `<table>_unreadable` instead. Other accounts' rows are untouched.
    /// - Throws: ``TokenStoreError``; ``TokenStoreError/Kind/readOnly`` on a read-only database
    ///   (the row stays as it was).
    public func clear() async throws(TokenStoreError) {
        try await shielded("clearing the credentials") { connection in
            var binds = PostgresBindings()
            binds.append(self.account)
            if let unreadable = try await self.unreadableRow(on: connection) {
                binds.append(ByteBuffer(bytes: unreadable))
                try await self.run(self.tables.moveAside, binds, on: connection)
            } else {
                try await self.run(self.tables.delete, binds, on: connection)
            }
        }
    }

    /// Moves this account's row to `<table>_unreadable` when it exists and cannot be read,
    /// inside the exclusive section, and says where it went:
    /// `postgres://user@host:port/db, table <table>_unreadable, id 12` (kept, never deleted).
    /// `nil` when there is no row or it reads; it is then left as it is. ``save(_:)`` and
    /// ``clear()`` do the same first; call this to tell someone where the row went.
    ///
    /// A row that does not decrypt is moved too: the store cannot tell a wrong key or passphrase
    /// from a modified or copied row, so call it for such a row only when the key is known to be
    /// right or the user asked for it.
    /// - Throws: ``TokenStoreError`` as ``clear()`` does.
    public func moveAsideIfUnreadable() async throws(TokenStoreError) -> String? {
        try await shielded("moving the unreadable row aside") { connection -> String? in
            guard let unreadable = try await self.unreadableRow(on: connection) else { return nil }
            var binds = PostgresBindings()
            binds.append(self.account)
            binds.append(ByteBuffer(bytes: unreadable))
            let id = try await Statement.run(self.tables.moveAside, binds, on: connection) { rows in
                var id: Int64?
                for try await value in rows.decode(Int64.self) { id = value }
                return id
            }
            return id.map { "\(self.asideLocation), id \($0)" }
        }
    }

    /// Runs `body` while holding the PostgreSQL advisory lock of this table and account on a
    /// dedicated connection: no other task, process or machine using the same database, table
    /// and account runs an exclusive section at the same time. ``load()``, ``save(_:)`` and
    /// ``clear()`` inside use that connection; nested calls from the same task tree run directly.
    /// The lock is released when `body` returns or throws, and by PostgreSQL if the connection
    /// drops (the holder died or lost the network).
    /// - Throws: `CancellationError` when the task is cancelled while waiting;
    ///   ``TokenStoreError`` (``TokenStoreError/Kind/lockFailed`` after ``Options/lockTimeout``,
    ///   ``TokenStoreError/Kind/unavailable`` without a connection); or what `body` throws, as it is.
    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await section(cancellable: true) { _ in try await body() }
    }

    /// `PostgresTokenStore(postgres://user@host:port/db, table t, account a, CredentialsSealer(…))`:
    /// never the password, the key or a token.
    public var description: String { "PostgresTokenStore(\(location), \(sealer))" }

    // MARK: - Connections

    /// Runs `body` in the section: on the held connection when the task already holds it, else
    /// after taking the in-process lock and then the advisory lock on a leased connection.
    private func section<T: Sendable>(
        cancellable: Bool, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if let connection = ExclusiveSection.resource(for: sectionKey, as: PostgresConnection.self) {
            return try await body(connection)
        }
        let processLock = self.processLock
        try await processLock.lock(cancellable: cancellable)
        defer { processLock.unlock() }
        let (key, sectionKey, timeout, location) = (lockKey, self.sectionKey, options.lockTimeout, self.location)
        return try await ConnectionLease.with(client, timeout: options.connectionTimeout, location: location, probe: loginProbe) { connection in
            do {
                try await self.migrateIfNeeded(on: connection)
            } catch {
                // The store's own work before `body`: its errors are store errors (a read-only
                // database that lacks the tables, say), never PostgresNIO's.
                throw DatabaseErrors.map(error, location: location, doing: "checking the tables")
            }
            try await AdvisoryLock.acquire(key, on: connection, timeout: timeout, cancellable: cancellable, location: location)
            // Nested sections of this task tree find the connection and run on it directly.
            let result: Result<T, any Error>
            do {
                result = .success(try await ExclusiveSection.holding(key: sectionKey, resource: connection) {
                    try await body(connection)
                })
            } catch {
                result = .failure(error)
            }
            await AdvisoryLock.release(key, on: connection)
            return try result.get()
        }
    }

    /// Runs `body` on the section's connection when the task holds the section, else on a
    /// leased one; every error becomes a ``TokenStoreError`` about `what`.
    private func perform<T: Sendable>(
        _ what: String, migrating: Bool = true, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws(TokenStoreError) -> T {
        do {
            if let connection = ExclusiveSection.resource(for: sectionKey, as: PostgresConnection.self) {
                return try await body(connection)
            }
            return try await ConnectionLease.with(client, timeout: options.connectionTimeout, location: location, probe: loginProbe) { connection in
                if migrating { try await self.migrateIfNeeded(on: connection) }
                return try await body(connection)
            }
        } catch {
            throw DatabaseErrors.map(error, location: location, doing: what)
        }
    }

    /// Runs `body` inside the section in a task of its own, which cancelling the caller does not
    /// cancel (it inherits the caller's section hold): a save or clear that started finishes.
    private func shielded<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(TokenStoreError) -> T {
        let work = Task { try await self.section(cancellable: false, body) }
        do {
            return try await work.value
        } catch {
            throw DatabaseErrors.map(error, location: location, doing: what)
        }
    }

    // MARK: - Statements

    private func migrateIfNeeded(on connection: PostgresConnection) async throws {
        guard options.migratesAutomatically, !migrated.withLock({ $0 }) else { return }
        try await migrate(on: connection)
    }

    private func migrate(on connection: PostgresConnection) async throws {
        // Only what is missing: a table that exists gets no DDL at all (not even CREATE TABLE IF
        // NOT EXISTS, which a read-only database or a role without CREATE refuses), so such a
        // database serves reads.
        var binds = PostgresBindings()
        binds.append(tables.credentials)
        binds.append(tables.unreadable)
        let (hasCredentials, hasUnreadable) = try await Statement.run(tables.existence, binds, on: connection) { rows in
            var found = (false, false)
            for try await row in rows.decode((Bool, Bool).self) { found = row }
            return found
        }
        let missing = (hasCredentials ? [] : [tables.createCredentials]) + (hasUnreadable ? [] : [tables.createUnreadable])
        for statement in missing {
            // CREATE TABLE IF NOT EXISTS is not atomic against itself: when another process
            // creates the same table at the same moment, one of them gets a unique violation
            // on the catalog (23505, 42P07 or 42710). The table exists then; run it again.
            var attempt = 1
            while true {
                do {
                    try await run(statement, PostgresBindings(), on: connection)
                    break
                } catch let error as PSQLError where attempt < 5 && ["23505", "42P07", "42710"].contains(error.serverInfo?[.sqlState] ?? "") {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(10 * attempt))
                }
            }
        }
        migrated.withLock { $0 = true }
    }

    /// This account's row, if it has one.
    private func fetch(on connection: PostgresConnection) async throws -> [UInt8]? {
        var binds = PostgresBindings()
        binds.append(account)
        return try await Statement.run(tables.select, binds, on: connection) { rows in
            var bytes: [UInt8]?
            for try await buffer in rows.decode(ByteBuffer.self) {
                bytes = Array(buffer.readableBytesView)
            }
            return bytes
        }
    }

    /// The credentials in a row's bytes, which must be bound to this table and account.
    private func open(_ bytes: [UInt8]) async throws(TokenStoreError) -> Credentials {
        try await sealer.open(bytes, boundTo: binding, acceptingUnbound: options.acceptsUnboundRows)
    }

    /// The row's bytes when it exists and cannot be read with this store's key (so it is moved
    /// aside, not overwritten); `nil` when there is no row or it reads.
    private func unreadableRow(on connection: PostgresConnection) async throws -> [UInt8]? {
        guard let bytes = try await fetch(on: connection) else { return nil }
        do {
            _ = try await open(bytes)
            return nil
        } catch where [.unreadable, .decryptionFailed, .unsupportedFormatVersion].contains(error.kind) {
            return bytes
        }
    }

    private func run(_ sql: String, _ binds: PostgresBindings, on connection: PostgresConnection) async throws {
        try await Statement.execute(sql, binds, on: connection)
    }
}
