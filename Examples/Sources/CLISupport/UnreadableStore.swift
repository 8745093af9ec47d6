public import TokenStore

/// What the programs say and do about a store that holds something they cannot read: a damaged,
/// truncated or foreign file or row, one of another format version, or one that does not decrypt.
///
/// A sign-in moves such a store aside (kept, never deleted: a file to
/// `<name>.unreadable-<time>` beside it, a row to `<table>_unreadable`) once the server has
/// accepted the sign-in, and says where it went (``MovingAsideTokenStore``). One that does not
/// decrypt is moved only with `sign-in --move-aside`: the store cannot tell a mistyped passphrase
/// or wrong key file from a modified file, and moving a good file aside after a typo would cost
/// the session in it. Sign-out cannot read the session in such a store, so it cannot end it at
/// the server: it leaves the store as it is and says so.
public enum UnreadableStore {
    /// The kinds a sign-in moves aside by itself: the stored bytes are bad whatever the key.
    public static let damageKinds: Set<TokenStoreError.Kind> = [.unreadable, .unsupportedFormatVersion]

    /// Every kind that means the stored bytes cannot be read with this key.
    public static let unreadableKinds: Set<TokenStoreError.Kind> = damageKinds.union([.decryptionFailed])

    /// Whether a sign-in may move the store of `error` aside: damaged, or, with `--move-aside`,
    /// not decrypting.
    public static func signInMovesAside(_ error: TokenStoreError, includingUndecryptable: Bool) -> Bool {
        damageKinds.contains(error.kind) || (includingUndecryptable && error.kind == .decryptionFailed)
    }

    /// "row" for the postgres store (its locations are `postgres://…, table …, account …`), else "file".
    static func thing(_ error: TokenStoreError) -> String {
        error.path?.hasPrefix("postgres") == true ? "row" : "file"
    }

    /// Where a sign-in moves the store of `error` to, in words.
    static func aside(_ error: TokenStoreError) -> String {
        thing(error) == "row" ? "to the table's _unreadable table" : "to \(error.path ?? "the file").unreadable-<time>"
    }

    /// The hint for a command that met `error` (one of ``unreadableKinds``).
    public static func hint(_ error: TokenStoreError) -> String {
        let thing = thing(error)
        if error.kind == .decryptionFailed {
            return "check the passphrase or key file (APP_STORE_PASSPHRASE, --key-file); if they are right, the \(thing) was modified"
                + (thing == "row" ? " or copied from another account" : "")
                + ": `sign-in --move-aside` moves it aside (\(aside(error)), kept, not deleted) and starts a new session"
        }
        return "`sign-in` moves the unreadable \(thing) aside (\(aside(error)), kept, not deleted) and starts a new session"
    }

    /// What sign-out says when it cannot read the session it should end.
    public static func signOutFailure(_ error: TokenStoreError) -> CLIError {
        let thing = thing(error)
        return .store(
            "\(error)\n  not signed out: the session in the \(thing) could not be read, so the server was not told; the \(thing) is left as it is",
            hint: hint(error)
        )
    }
}
