import AppRepository
import NetworkService
#if PostgreSQL
import PostgresTokenStore
#endif
import SessionEngine
import TokenStore

extension CLIError {
    /// Sorts any error a command meets into its failure class. The error's text is made safe
    /// for a terminal (``TerminalText``): it may quote what a server said.
    public init(_ error: any Error) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as SessionError:
            self = Self.from(error)
        case let error as TokenStoreError:
            self = Self.from(error)
        case let error as NetworkError:
            self = error.kind == .invalidServerURL
                ? .usage(TerminalText.safe("\(error)"), hint: "pass --server http://HOST:PORT or set APP_SERVER_URL")
                : Self.from(error)
        case is CancellationError:
            self = CLIError(.unexpected, "cancelled")
        default:
            self = CLIError(.unexpected, TerminalText.safe("\(error)"))
        }
    }

    private static func from(_ error: SessionError) -> CLIError {
        switch error.kind {
        case .notSignedIn:
            return CLIError(.notSignedIn, "not signed in", hint: "run sign-in first (same --store and --store-path, or --database-url and --account)")
        case .sessionEnded, .sessionChanged:
            return CLIError(.notSignedIn, TerminalText.safe("\(error)"), hint: "sign in again")
        case .sessionEndedCredentialsNotRemoved:
            return CLIError(.notSignedIn, TerminalText.safe("\(error)"), hint: "sign in again once the token store is reachable")
        case .dpopNotHonoured:
            // Asking again cannot help: the server does not bind tokens to keys.
            return CLIError(.rejected, TerminalText.safe("\(error)"), hint: "the server does not bind sessions to DPoP keys: sign in without --dpop")
        case .dpopKeyUnusable:
            return CLIError(.usage, TerminalText.safe("\(error)"),
                            hint: "this build cannot sign with the session's DPoP key: sign out, then sign in again")
        default:
            // refreshFailed (transient) and refreshLimitExceeded: the server is the problem.
            return CLIError(.server, TerminalText.safe("\(error)"))
        }
    }

    private static func from(_ error: TokenStoreError) -> CLIError {
        let hint: String? = switch error.kind {
        case .decryptionFailed, .unreadable, .unsupportedFormatVersion: UnreadableStore.hint(error)
        case .insecurePermissions: "chmod 600 \(error.path ?? "the file") (and 700 its folder)"
        case .readOnly: "the database is read-only (a standby, or default_transaction_read_only is on): use a writable one (the primary) in the database URL"
        // The postgres store: its errors name the database (never the password), table and account.
        case .unavailable: "is PostgreSQL running there and reachable, and are the database URL's user and password right? Nothing was changed"
        #if PostgreSQL
        case .database: "check the database URL's user and password (APP_DATABASE_URL) and that user's permissions"
        case .invalidConfiguration: PostgresStore.urlHint
        #endif
        default: nil
        }
        return .store(TerminalText.safe("\(error)"), hint: hint)
    }

    private static func from(_ error: NetworkError) -> CLIError {
        guard error.kind == .httpStatus, let status = error.statusCode else {
            let hint = error.kind == .transport ? "is the server running at the --server / APP_SERVER_URL address?" : nil
            return CLIError(.server, TerminalText.safe("\(error)"), hint: hint)
        }
        switch status {
        case 401:
            let hint = error.serverErrorCode == .invalidCredentials ? nil : "sign in again"
            return CLIError(.notSignedIn, TerminalText.safe("\(error)"), hint: hint)
        case 403:
            return CLIError(.forbidden, TerminalText.safe("\(error)"))
        case 408, 429, 500...599:
            return CLIError(.server, TerminalText.safe("\(error)"))
        case 400...499:
            return CLIError(.rejected, TerminalText.safe("\(error)"))
        default:
            return CLIError(.server, TerminalText.safe("\(error)"))
        }
    }
}
