public import ArgumentParser
import Foundation

/// The options every command of `app-member` and `app-admin` takes: which server, and the
/// ``StoreOptions`` (which token store, how to send requests, how to print). Each falls back
/// to an environment variable (see `--help`).
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("The API server's base URL. [APP_SERVER_URL]", valueName: "url"))
    public var server: String?

    /// The token store, transport and output options.
    @OptionGroup public var common: StoreOptions

    public init() {}

    /// Whether results are printed as JSON (`--json`).
    public var json: Bool { common.json }
    /// Whether progress notes are printed (`--verbose`).
    public var verbose: Bool { common.verbose }

    /// The server URL from the flag, else `APP_SERVER_URL`.
    func resolvedServerURL() throws(CLIError) -> String {
        guard let url = server ?? Environment.value(Environment.serverURL) else {
            throw .usage("no server given", hint: "pass --server http://HOST:PORT or set APP_SERVER_URL")
        }
        return url
    }
}
