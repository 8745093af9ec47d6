import Foundation
#if PostgreSQL
import PostgresTokenStore
#endif
import TokenStore

/// `--store postgres`: the session in a row of a PostgreSQL table (`PostgresTokenStore`, from
/// the `Integrations/PostgresTokenStore` package), encrypted in this process under the same
/// key sources as the encrypted file store.
///
/// The database URL holds the password. It goes to the store and nowhere else: messages,
/// prompts and `--verbose` notes name the database as `postgres://user@host:port/database`
/// (the store's own description and errors redact it the same way).
enum PostgresStore {
    #if PostgreSQL
    /// Opens the store the options name; the caller shuts it down (``PostgresTokenStore/shutdown()``)
    /// when the command ends. For a new session asked for at the prompt, a new row (none yet for
    /// the account) asks for its passphrase twice, as a new encrypted file does.
    static func open(_ options: StoreOptions, purpose: CommandContext.Purpose) async throws(CLIError) -> PostgresTokenStore {
        let url = try options.resolvedDatabaseURL()
        let database = try redacted(url)
        let account = options.resolvedAccount()
        let (key, typed) = try Passphrase.keySource(
            keyFile: options.resolvedKeyFile(), store: "the postgres store (account \(account) in \(database))",
            place: "account \(account) in \(database)", confirm: false
        )
        var storeOptions = PostgresTokenStore.Options()
        // A database that cannot be reached fails after this long (exit 66), not the store's default 10 s
        // when --timeout is shorter.
        storeOptions.connectionTimeout = .milliseconds(Int64(min(options.timeout, 10) * 1000))
        let store: PostgresTokenStore
        do throws(TokenStoreError) {
            store = try await PostgresTokenStore(url: url, account: account, key: key, options: storeOptions)
        } catch where error.kind == .invalidConfiguration {
            throw .usage("\(error)", hint: urlHint)
        } catch {
            throw CLIError(error as any Error)
        }
        guard purpose == .startSession, let typed else { return store }
        do {
            // The row is read anyway before a sign-in (see Runner); nothing there yet means a new
            // passphrase, which a typo must not set.
            if try await store.load() == nil {
                try Passphrase.confirm(typed)
            }
        } catch let error as TokenStoreError where UnreadableStore.unreadableKinds.contains(error.kind) {
            // A row this key cannot read: the runner decides (a damaged row is moved aside by the
            // sign-in; one that does not decrypt stops it, unless --move-aside).
        } catch {
            await store.shutdown()
            throw CLIError(error)
        }
        return store
    }
    #endif

    static let urlHint = "set APP_DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/DATABASE (the variable keeps the password out of the process list), or pass --database-url"

    /// `postgres://user@host:port/database`: `url` without its password (nor its query), for
    /// prompts and messages.
    /// - Throws: A usage error, which does not quote the URL, when it is not a postgres URL.
    static func redacted(_ url: String) throws(CLIError) -> String {
        guard let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let host = components.host, !host.isEmpty else {
            throw .usage("the database URL is not a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL", hint: urlHint)
        }
        let user = components.percentEncodedUser?.removingPercentEncoding ?? ""
        let bracketedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        var database = components.percentEncodedPath
        if database.hasPrefix("/") { database.removeFirst() }
        database = database.removingPercentEncoding ?? database
        return "postgres://\(user.isEmpty ? "" : user + "@")\(bracketedHost):\(components.port ?? 5432)/\(database.isEmpty ? user : database)"
    }
}
