/// The exit codes both programs use, so that scripts can tell failures apart.
///
/// | code | meaning |
/// |---|---|
/// | 0 | it worked |
/// | 1 | an unexpected failure (a bug; the message says what) |
/// | 64 | usage: a bad flag or argument, a bad `--server` URL, no server given, a bad or missing `--database-url` for the postgres store, missing credentials |
/// | 65 | not signed in, the session ended, or the server refused the email and password |
/// | 66 | token store: wrong passphrase or key, modified or unreadable file or row (sign-in moves a damaged one aside), unsafe permissions, no passphrase available, PostgreSQL unreachable, refusing the login or read-only |
/// | 67 | server or network: unreachable, timed out, 5xx, an answer the SDK cannot read, a refresh that failed for now |
/// | 68 | forbidden: the server answered 403, or the admin program's member is not an admin |
/// | 69 | rejected: the server refused the request itself (400 invalid input, 404 not found, 409 email taken) |
public enum ExitStatus: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case success = 0
    case unexpected = 1
    case usage = 64
    case notSignedIn = 65
    case store = 66
    case server = 67
    case forbidden = 68
    case rejected = 69

    /// One line for `--help` and error reports.
    public var description: String {
        switch self {
        case .success: "ok"
        case .unexpected: "unexpected failure (a bug)"
        case .usage: "usage: bad flag or argument, no --server/--database-url, no credentials"
        case .notSignedIn: "not signed in, session ended, wrong email or password"
        case .store: "token store: wrong key, modified file, unsafe mode, database down"
        case .server: "server or network: unreachable, timeout, 5xx, bad answer"
        case .forbidden: "forbidden: HTTP 403, or app-admin run by a non-admin"
        case .rejected: "rejected: invalid input (400), not found (404), taken (409)"
        }
    }

    /// The table printed at the end of each program's `--help`.
    public static var helpTable: String {
        table { $0.description }
    }

    /// What each code means for `app-oauth`, whose server is the issuer it signed in with
    /// (no `--server`), and whose client and scope the server may refuse.
    public var oauthDescription: String {
        switch self {
        case .usage: "usage: bad flag or argument, bad --issuer, a client or scope the server refuses"
        case .notSignedIn: "not signed in, session ended, sign-in refused (denied, expired code)"
        case .forbidden: "forbidden: the server answered 403 (a client or scope it will not serve)"
        case .rejected: "rejected: the server refused the request (another 4xx)"
        default: description
        }
    }

    /// The table printed at the end of `app-oauth --help`.
    public static var oauthHelpTable: String {
        table { $0.oauthDescription }
    }

    private static func table(_ meaning: (ExitStatus) -> String) -> String {
        "EXIT CODES:\n" + allCases.map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\(meaning($0))" }
            .joined(separator: "\n")
    }
}
