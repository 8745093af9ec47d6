public import ArgumentParser
public import Foundation
import NetworkService

/// The options every command of every program takes besides the server: which token store,
/// how to send requests, and how to print. Each falls back to an environment variable (see
/// `--help`). `app-member` and `app-admin` take them inside ``GlobalOptions``; `app-oauth`,
/// whose server is the issuer it signed in with, takes them alone.
public struct StoreOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("Where the session is kept: memory, file, encrypted or postgres. [APP_STORE, default \(StoreDefaults.kind)]", valueName: "kind"))
    public var store: StoreKind?

    @Option(name: .long, help: ArgumentHelp("The store file. [APP_STORE_PATH, default \(StoreDefaults.file)]", valueName: "path"))
    public var storePath: String?

    @Option(name: .long, help: ArgumentHelp("Encrypted and postgres stores: a 32-byte key file instead of a passphrase; created (0600) when missing. [APP_STORE_KEY_FILE]", valueName: "path"))
    public var keyFile: String?

    @Option(name: .customLong("database-url"), help: ArgumentHelp(
        "Postgres store: the database, postgres://USER:PASSWORD@HOST:PORT/DATABASE[?sslmode=disable|prefer|require]. [APP_DATABASE_URL] Prefer the variable: a flag's value, password included, shows in the process list (ps); the variable keeps it out. The password is never printed.",
        valueName: "url"))
    public var databaseURL: String?

    @Option(name: .customLong("account"), help: ArgumentHelp("Postgres store: the session's row in the table; several accounts share one database. [APP_STORE_ACCOUNT, default default]", valueName: "name"))
    public var account: String?

    @Option(name: .long, help: ArgumentHelp("How requests are sent: urlsession or async-http-client. [APP_TRANSPORT, default urlsession]", valueName: "kind"))
    public var transport: TransportKind?

    @Option(name: .customLong("timeout"), help: ArgumentHelp("Seconds a whole request may take, at most 86400 (a day). [default: 30]", valueName: "seconds"))
    public var givenTimeout: Double?

    /// Seconds a whole request may take: `--timeout`, else 30.
    public var timeout: Double { givenTimeout ?? 30 }

    /// Whether `--timeout` was given (a command may let it cover a wait of its own, as
    /// app-oauth's browser sign-in does).
    public var timeoutWasGiven: Bool { givenTimeout != nil }

    @Flag(name: .long, help: "Print results as JSON (stable keys, RFC 3339 dates) for scripts.")
    public var json = false

    @Flag(name: [.short, .long], help: "Say on stderr when this program refreshes the session.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)")
        }
        // The transports would cut a longer one to a day anyway; a flag that asks for more is a mistake.
        guard timeout <= TransportLimits.maximumTimeout else {
            throw ValidationError("--timeout must be at most \(Int(TransportLimits.maximumTimeout)) seconds (a day), got \(timeout)")
        }
        if let account, account.isEmpty {
            throw ValidationError("--account must not be empty")
        }
    }

    /// The store kind from the flag, else `APP_STORE`, else `file`.
    /// - Throws: A usage error for `postgres` in a build without the `PostgreSQL` trait.
    public func resolvedStoreKind() throws(CLIError) -> StoreKind {
        let kind = try requestedStoreKind()
        guard kind.isBuilt else {
            throw .usage("this build of the CLIs has no \(kind.rawValue) store", hint: "build Examples/ with its default traits (scripts/demo builds without them)")
        }
        return kind
    }

    private func requestedStoreKind() throws(CLIError) -> StoreKind {
        if let store { return store }
        guard let text = Environment.value(Environment.store) else { return .file }
        guard let kind = StoreKind(rawValue: text) else {
            throw .usage("APP_STORE=\(text) is not a store kind", hint: "use memory, file, encrypted or postgres")
        }
        return kind
    }

    /// The transport from the flag, else `APP_TRANSPORT`, else `urlsession`.
    /// - Throws: A usage error for `async-http-client` in a build without the `AsyncHTTPClient` trait.
    public func resolvedTransportKind() throws(CLIError) -> TransportKind {
        let kind = try requestedTransportKind()
        guard kind.isBuilt else {
            throw .usage("this build of the CLIs has no \(kind.rawValue) transport", hint: "build Examples/ with its default traits (scripts/demo builds without them)")
        }
        return kind
    }

    private func requestedTransportKind() throws(CLIError) -> TransportKind {
        if let transport { return transport }
        guard let text = Environment.value(Environment.transport) else { return .urlsession }
        guard let kind = TransportKind(rawValue: text) else {
            throw .usage("APP_TRANSPORT=\(text) is not a transport", hint: "use urlsession or async-http-client")
        }
        return kind
    }

    /// The store file from the flag, else `APP_STORE_PATH`, else the per-user default.
    public func resolvedStoreURL(for kind: StoreKind) -> URL {
        if let path = storePath ?? Environment.value(Environment.storePath) {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        return StoreLocation.defaultFile(for: kind)
    }

    /// The key file from the flag, else `APP_STORE_KEY_FILE`.
    public func resolvedKeyFile() -> URL? {
        (keyFile ?? Environment.value(Environment.keyFile)).map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
    }

    /// The PostgreSQL URL from the flag, else `APP_DATABASE_URL`; required by `--store postgres`.
    /// The URL holds the password: it is given to the store only, never printed.
    public func resolvedDatabaseURL() throws(CLIError) -> String {
        guard let url = databaseURL ?? Environment.value(Environment.databaseURL) else {
            throw .usage("--store postgres needs the database: no --database-url given and APP_DATABASE_URL is not set",
                         hint: "set APP_DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/DATABASE (the variable keeps the password out of the process list), or pass --database-url")
        }
        return url
    }

    /// The postgres store's account from the flag, else `APP_STORE_ACCOUNT`, else `default`.
    public func resolvedAccount() -> String {
        account ?? Environment.value(Environment.account) ?? "default"
    }

}
