/// The store's two tables as quoted SQL identifiers, and the statements that use them. Names
/// are quoted (`"a""b"`), never interpolated raw, so any table name is safe.
struct TableNames: Sendable {
    /// The qualified name as written in errors and lock keys: `schema.table` or `table`.
    let display: String
    /// `"schema"."table"` or `"table"`.
    let credentials: String
    /// The table of rows moved aside because they could not be read.
    let unreadable: String
    /// The unreadable table's name as written in messages: `schema.table_unreadable` or `table_unreadable`.
    let unreadableDisplay: String

    init(table: String, schema: String?) {
        func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let prefix = schema.map { quote($0) + "." } ?? ""
        display = (schema.map { $0 + "." } ?? "") + table
        credentials = prefix + quote(table)
        unreadable = prefix + quote(table + "_unreadable")
        unreadableDisplay = display + "_unreadable"
    }

    /// Whether each table exists (two booleans, no DDL): a read-only database answers it too.
    var existence: String {
        "SELECT to_regclass($1::text) IS NOT NULL, to_regclass($2::text) IS NOT NULL"
    }

    /// Idempotent: creates the credentials table when missing.
    var createCredentials: String {
        """
        CREATE TABLE IF NOT EXISTS \(credentials) (
            account text PRIMARY KEY,
            credentials bytea NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now()
        )
        """
    }

    /// Idempotent: creates the table of rows moved aside when missing.
    var createUnreadable: String {
        """
        CREATE TABLE IF NOT EXISTS \(unreadable) (
            id bigserial PRIMARY KEY,
            account text NOT NULL,
            credentials bytea NOT NULL,
            moved_at timestamptz NOT NULL DEFAULT now()
        )
        """
    }

    /// $1 account.
    var select: String { "SELECT credentials FROM \(credentials) WHERE account = $1" }

    /// $1 account, $2 bytes: one statement, so a reader sees the old row or the new one.
    var upsert: String {
        """
        INSERT INTO \(credentials) (account, credentials, updated_at) VALUES ($1, $2, now())
        ON CONFLICT (account) DO UPDATE SET credentials = EXCLUDED.credentials, updated_at = EXCLUDED.updated_at
        """
    }

    /// $1 account, $2 new bytes, $3 the unreadable bytes found: keeps them in the unreadable
    /// table and writes the new row, in one statement.
    var moveAsideAndUpsert: String {
        """
        WITH aside AS (
            INSERT INTO \(unreadable) (account, credentials)
            SELECT account, credentials FROM \(credentials) WHERE account = $1 AND credentials = $3
        )
        INSERT INTO \(credentials) (account, credentials, updated_at) VALUES ($1, $2, now())
        ON CONFLICT (account) DO UPDATE SET credentials = EXCLUDED.credentials, updated_at = EXCLUDED.updated_at
        """
    }

    /// $1 account.
    var delete: String { "DELETE FROM \(credentials) WHERE account = $1" }

    /// $1 account, $2 the unreadable bytes found: moves the row to the unreadable table and
    /// returns its id there (no row when the row changed meanwhile).
    var moveAside: String {
        """
        WITH gone AS (
            DELETE FROM \(credentials) WHERE account = $1 AND credentials = $2 RETURNING account, credentials
        )
        INSERT INTO \(unreadable) (account, credentials) SELECT account, credentials FROM gone RETURNING id
        """
    }
}
