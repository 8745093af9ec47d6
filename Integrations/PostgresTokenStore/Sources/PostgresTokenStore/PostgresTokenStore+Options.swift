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
        /// Create the tables (`CREATE TABLE IF NOT EXISTS`) before the store's first use.
        /// Turn it off when the database role may not create tables and the tables were made
        /// with ``PostgresTokenStore/migrate()`` by a role that may. On by default.
        public var migratesAutomatically: Bool
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
            allowsInsecureKeyFile: Bool = false
        ) {
            self.table = table
            self.schema = schema
            self.lockTimeout = lockTimeout
            self.connectionTimeout = connectionTimeout
            self.migratesAutomatically = migratesAutomatically
            self.allowsInsecureKeyFile = allowsInsecureKeyFile
        }
    }
}
