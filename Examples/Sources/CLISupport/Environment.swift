import Foundation

/// The environment variables the programs read, in one place (and in `--help`).
enum Environment {
    static let serverURL = "APP_SERVER_URL"
    static let transport = "APP_TRANSPORT"
    static let store = "APP_STORE"
    static let storePath = "APP_STORE_PATH"
    static let keyFile = "APP_STORE_KEY_FILE"
    static let passphrase = "APP_STORE_PASSPHRASE"
    static let databaseURL = "APP_DATABASE_URL"
    static let account = "APP_STORE_ACCOUNT"
    static let email = "APP_EMAIL"
    static let password = "APP_PASSWORD"

    /// The variable's value, or `nil` when it is unset or empty.
    static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The help section that lists them.
    static let helpText = """
        ENVIRONMENT:
          APP_SERVER_URL        the server (instead of --server)
          APP_TRANSPORT         urlsession or async-http-client (instead of --transport)
          APP_STORE             memory, file, encrypted or postgres (--store)
          APP_STORE_PATH        the store file (instead of --store-path)
          APP_STORE_KEY_FILE    a 32-byte key file (encrypted, postgres store)
          APP_STORE_PASSPHRASE  the passphrase (encrypted, postgres; no prompt)
          APP_DATABASE_URL      --store postgres: postgres://USER:PASSWORD@HOST:PORT/DB
                                (instead of --database-url: keeps the password out
                                of the process list; it is never printed)
          APP_STORE_ACCOUNT     --store postgres: the session's row (default: default)
          APP_EMAIL             sign-in/sign-up email; with --store memory,
          APP_PASSWORD          every command signs in with these, then out
          XDG_CONFIG_HOME       default store: $XDG_CONFIG_HOME/app-sdk/
                                credentials.json (.enc when encrypted)
        """
}
