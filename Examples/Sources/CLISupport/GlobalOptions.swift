public import ArgumentParser
import Foundation

/// The options every command of both programs takes: which server, which token store, and
/// how to print. Each falls back to an environment variable (see `--help`).
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("The API server's base URL. [APP_SERVER_URL]", valueName: "url"))
    public var server: String?

    @Option(name: .long, help: ArgumentHelp("Where the session is kept: memory, file or encrypted. [APP_STORE, default file]", valueName: "kind"))
    public var store: StoreKind?

    @Option(name: .long, help: ArgumentHelp("The store file. [APP_STORE_PATH, default $XDG_CONFIG_HOME/app-sdk/credentials.json or .enc]", valueName: "path"))
    public var storePath: String?

    @Option(name: .long, help: ArgumentHelp("Encrypted store: a 32-byte key file instead of a passphrase; created (0600) when missing. [APP_STORE_KEY_FILE]", valueName: "path"))
    public var keyFile: String?

    @Option(name: .long, help: ArgumentHelp("Seconds a request may wait for the server.", valueName: "seconds"))
    public var timeout: Double = 30

    @Flag(name: .long, help: "Print results as JSON (stable keys, RFC 3339 dates) for scripts.")
    public var json = false

    @Flag(name: [.short, .long], help: "Say on stderr when this program refreshes the session.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
    }

    /// The store kind from the flag, else `APP_STORE`, else `file`.
    func resolvedStoreKind() throws(CLIError) -> StoreKind {
        if let store { return store }
        guard let text = Environment.value(Environment.store) else { return .file }
        guard let kind = StoreKind(rawValue: text) else {
            throw .usage("APP_STORE=\(text) is not a store kind", hint: "use memory, file or encrypted")
        }
        return kind
    }

    /// The store file from the flag, else `APP_STORE_PATH`, else the per-user default.
    func resolvedStoreURL(for kind: StoreKind) -> URL {
        if let path = storePath ?? Environment.value(Environment.storePath) {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        return StoreLocation.defaultFile(for: kind)
    }

    /// The key file from the flag, else `APP_STORE_KEY_FILE`.
    func resolvedKeyFile() -> URL? {
        (keyFile ?? Environment.value(Environment.keyFile)).map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
    }

    /// The server URL from the flag, else `APP_SERVER_URL`.
    func resolvedServerURL() throws(CLIError) -> String {
        guard let url = server ?? Environment.value(Environment.serverURL) else {
            throw .usage("no server given", hint: "pass --server http://HOST:PORT or set APP_SERVER_URL")
        }
        return url
    }
}
