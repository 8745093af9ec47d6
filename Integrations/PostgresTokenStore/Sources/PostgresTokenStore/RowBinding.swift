/// What the seal of a row is bound to: the table it was written to and its account.
///
/// The store seals each row with ``CredentialsSealer/seal(_:boundTo:)`` under this string and
/// opens it with the same one, so a row copied from another account, or from another table
/// sealed under the same key, fails to decrypt exactly as a modified row does: nobody with write
/// access to the table (but not the key) can make one account's process act as another's member.
///
/// The table is its name as configured (``PostgresTokenStore/Options/table``), without the
/// schema or the database: the same table reached through `search_path` or a qualified name
/// reads the same rows, and a dump restored into another database or schema still opens. So a
/// row copied between two tables of that name in different schemas or databases is not refused.
enum RowBinding {
    /// The version of this string's layout: a new layout gets a new number, never a new meaning.
    static let version = 1

    /// `PostgresTokenStore row 1; table 15:app_token_store; account 3:kim`. Each name is
    /// preceded by its length in UTF-8 bytes, so that no two (table, account) pairs give the
    /// same string, whatever characters the names hold.
    static func string(table: String, account: String) -> String {
        "PostgresTokenStore row \(version); table \(table.utf8.count):\(table); account \(account.utf8.count):\(account)"
    }
}
