import Foundation

/// The environment variables the programs read, in one place (and in `--help`).
enum Environment {
    static let serverURL = "APP_SERVER_URL"
    static let store = "APP_STORE"
    static let storePath = "APP_STORE_PATH"
    static let keyFile = "APP_STORE_KEY_FILE"
    static let passphrase = "APP_STORE_PASSPHRASE"
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
          APP_STORE             memory, file or encrypted (instead of --store)
          APP_STORE_PATH        the store file (instead of --store-path)
          APP_STORE_KEY_FILE    a 32-byte key file for --store encrypted
          APP_STORE_PASSPHRASE  the encrypted store's passphrase (no prompt)
          APP_EMAIL             sign-in/sign-up email; with --store memory,
          APP_PASSWORD          every command signs in with these, then out
          XDG_CONFIG_HOME       default store: $XDG_CONFIG_HOME/app-sdk/
                                credentials.json (.enc when encrypted)
        """
}
