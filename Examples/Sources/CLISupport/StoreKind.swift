public import ArgumentParser

/// Where a program keeps the session's tokens (`--store`).
public enum StoreKind: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// In memory: gone when the program ends. With `APP_EMAIL`/`APP_PASSWORD` set, each
    /// command signs in first and out at the end (a one-shot session for CI).
    case memory
    /// A JSON file, mode 0600 in a 0700 folder. The tokens are readable by whoever can read it.
    case file
    /// A file encrypted with libsodium under a passphrase or a key file.
    case encrypted
    /// A row of a PostgreSQL table (`--database-url`, `--account`), encrypted like the
    /// `encrypted` file before it leaves the process: one session shared by several machines.
    case postgres

    /// Whether this build has the store: `postgres` only with the package trait `PostgreSQL`
    /// (on by default; scripts/demo's CLIs are built without it).
    public var isBuilt: Bool {
        switch self {
        case .memory, .file, .encrypted: true
        case .postgres:
            #if PostgreSQL
            true
            #else
            false
            #endif
        }
    }
}
