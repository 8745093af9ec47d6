import CLISupport
import Foundation

/// Why `app-oauth git-credential` refused a request. The messages name the line and the key,
/// never a value but the host (made safe for a terminal): `store` and `erase` requests carry a password.
enum GitCredentialError: Error, Equatable, Sendable, LocalizedError {
    /// A line without `=`.
    case noEquals(line: Int)
    /// A key that is empty, longer than 64 bytes or has a character outside letters, digits, `_-[]`.
    case badKey(line: Int)
    /// A value that is not UTF-8.
    case notUTF8(line: Int, key: String)
    /// A value with a control character (a CR or LF smuggled into a URL, an escape sequence, NUL).
    case controlCharacter(line: Int, key: String)
    /// A line longer than `limit` bytes.
    case lineTooLong(line: Int, limit: Int)
    /// More than `limit` bytes before the blank line.
    case inputTooLong(limit: Int)
    /// A `url` value that is not a URL with a scheme and a host.
    case badURL(line: Int)
    /// A request without a field the answer needs (`protocol`, `host`).
    case missingField(String)
    /// `protocol=http` for a host that is not this machine: a token is never sent in clear
    /// over the network.
    case plainHTTP(host: String)

    var errorDescription: String? {
        switch self {
        case let .noEquals(line): "git credential request, line \(line): no '=' (expected key=value)"
        case let .badKey(line): "git credential request, line \(line): the key is empty, too long or has a character other than letters, digits, '_', '-', '[', ']'"
        case let .notUTF8(line, key): "git credential request, line \(line): the value of \(key) is not UTF-8"
        case let .controlCharacter(line, key): "git credential request, line \(line): the value of \(key) has a control character"
        case let .lineTooLong(line, limit): "git credential request, line \(line): longer than \(limit) bytes"
        case let .inputTooLong(limit): "git credential request: longer than \(limit) bytes before its blank line"
        case let .badURL(line): "git credential request, line \(line): url is not a URL with a scheme and a host"
        case let .missingField(key): "git credential request: no \(key)"
        case let .plainHTTP(host): "git credential request for http://\(TerminalText.safe(host)): a token is sent over plain http only to this machine (127.0.0.1, ::1, localhost)"
        }
    }

    /// What to do about it.
    var hint: String? {
        switch self {
        case .plainHTTP: "use an https:// remote URL"
        default: nil
        }
    }
}
