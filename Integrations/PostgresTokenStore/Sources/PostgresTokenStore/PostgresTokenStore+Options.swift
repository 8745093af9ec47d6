extension PostgresTokenStore {
    /// Where the store keeps its rows and how long it waits.
    public struct Options: Sendable {
        /// The table holding one row per account (default `app_token_store`). Quoted as an
        /// identifier, so any name works; the store also uses `<table>_unreadable` for rows it
        /// moved aside.
        public var table: String
        /// The table's schema; `nil` uses the connection's `search_path` (usually `public`).
        public var schema: String?
        /// How long to wait for the exclusive section while another process (on any machine)
        /// holds it before failing with ``TokenStoreError/Kind/lockFailed``; `nil` waits as long
        /// as it takes. Default two minutes, as for the file stores.
        public var lockTimeout: Duration?
        /// How long a call waits for a connection to the database before failing with the
        /// transient ``TokenStoreError/Kind/unavailable`` (a database that is down, refuses
        /// connections, or a `PostgresClient` whose `run()` is not running). Default 10 s.
        public var connectionTimeout: Duration
        /// Create the tables that are missing (`CREATE TABLE IF NOT EXISTS`) before the store's
        /// first use; tables that exist are left alone, so a role that may not create tables, or
        /// a read-only database, works once they exist. Turn it off to never run DDL: the tables
        /// are then made with ``PostgresTokenStore/migrate()`` by a role that may. On by default.
        public var migratesAutomatically: Bool
        /// Read rows sealed before rows were bound to their table and account (encrypted format
        /// version 1, written by earlier versions of this store): they load as before, and the
        /// next save (a token refresh) seals the row bound, so no session is lost on upgrade.
        /// While it is on, such an unbound row copied from another account or table sealed under
        /// the same key (from a backup, or an account that has not saved since the upgrade) is
        /// accepted. Turn it off once every account has saved since the upgrade: an unbound row is
        /// then refused (``TokenStoreError/Kind/unsupportedFormatVersion``) and moved aside by the
        /// next save or clear. On by default.
        public var acceptsUnboundRows: Bool
        /// Read a key file that group or others can access instead of refusing it
        /// (``TokenStoreError/Kind/insecurePermissions``). Off by default.
        public var allowsInsecureKeyFile: Bool

        /// Creates options; every parameter has the default described on its property.
        public init(
            table: String = "app_token_store",
            schema: String? = nil,
            lockTimeout: Duration? = .seconds(120),
            connectionTimeout: Duration = .seconds(10),
            migratesAutomatically: Bool = true,
            acceptsUnboundRows: Bool = true,
            allowsInsecureKeyFile: Bool = false
        ) {
            self.table = table
            self.schema = schema
            self.lockTimeout = lockTimeout
            self.connectionTimeout = connectionTimeout
            self.migratesAutomatically = migratesAutomatically
            self.acceptsUnboundRows = acceptsUnboundRows
            self.allowsInsecureKeyFile = allowsInsecureKeyFile
        }
    }
}
