import Foundation

/// What git asks a credential helper (`man gitcredentials`, "Custom helpers"): `key=value`
/// lines on standard input until a blank line or the end of input.
///
/// The input is attacker-influenced (a repository's remote URL names the host, the path and
/// the user name), so it is read within limits and every value is checked: no control
/// character, valid UTF-8, a line at most ``maximumLineBytes`` long, at most
/// ``maximumInputBytes`` in all. Keys it does not know (`wwwauth[]`, `capability[]`, ...) are
/// skipped, as the protocol asks. Errors never quote a value (``GitCredentialError``).
struct GitCredentialRequest: Equatable, Sendable {
    /// `protocol`: `https`, `http`, `cert`, ...
    var scheme: String?
    /// `host`, with `:port` when the URL names one.
    var host: String?
    /// `path`, when git is told to send it (`credential.useHttpPath`).
    var path: String?
    /// `username`, when the URL or git's configuration names one.
    var username: String?
    /// `password`: set in `store` and `erase` requests.
    var password: String?

    /// The longest line accepted, in bytes.
    static let maximumLineBytes = 8_192
    /// The most input accepted before the blank line, in bytes.
    static let maximumInputBytes = 65_536

    /// Parses `data`, the helper's standard input, up to its first blank line.
    /// - Throws: ``GitCredentialError`` for a line without `=`, an empty or odd key, a value
    ///   with a control character or invalid UTF-8, a line or an input too long, a bad `url`.
    init(parsing data: Data) throws(GitCredentialError) {
        var lineNumber = 0
        var start = data.startIndex
        var consumed = 0
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            lineNumber += 1
            var line = data[start..<end]
            consumed += line.count + 1
            start = end < data.endIndex ? data.index(after: end) : end
            guard line.count <= Self.maximumLineBytes else { throw .lineTooLong(line: lineNumber, limit: Self.maximumLineBytes) }
            guard consumed <= Self.maximumInputBytes + 1 else { throw .inputTooLong(limit: Self.maximumInputBytes) }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }   // git reads CRLF as LF too
            if line.isEmpty { return }
            try take(line, number: lineNumber)
        }
    }

    /// Records one `key=value` line.
    private mutating func take(_ line: Data, number: Int) throws(GitCredentialError) {
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { throw .noEquals(line: number) }
        let keyBytes = line[line.startIndex..<equals]
        guard !keyBytes.isEmpty, keyBytes.count <= 64,
              keyBytes.allSatisfy({ $0 < 0x80 && (Self.keyCharacters.contains(Unicode.Scalar($0))) }) else {
            throw .badKey(line: number)
        }
        let key = String(decoding: keyBytes, as: UTF8.self)
        guard let value = String(data: line[line.index(after: equals)...], encoding: .utf8) else {
            throw .notUTF8(line: number, key: key)
        }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .controlCharacter(line: number, key: key)
        }
        switch key {
        case "protocol": scheme = value.lowercased()
        case "host": host = value
        case "path": path = value
        case "username": username = value
        case "password": password = value
        case "url": try take(url: value, line: number)
        default: break   // `wwwauth[]`, `capability[]`, `password_expiry_utc`, ...: not needed here
        }
    }

    /// `url=`: git's short form for the fields it names.
    private mutating func take(url value: String, line: Int) throws(GitCredentialError) {
        guard let components = URLComponents(string: value), let scheme = components.scheme, let host = components.host,
              !host.isEmpty else {
            throw .badURL(line: line)
        }
        self.scheme = scheme.lowercased()
        self.host = components.port.map { "\(host):\($0)" } ?? host
        if !components.path.isEmpty { path = String(components.path.dropFirst()) }
        if let user = components.user { username = user }
        if let password = components.password { self.password = password }
    }

    /// The characters of a key: letters, digits, `_`, `-`, `[`, `]`.
    private static let keyCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-[]"))

    /// Whether `host` (with or without a port) names this machine: `localhost`, `127.0.0.0/8`, `::1`.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            name = String(name.dropFirst().prefix { $0 != "]" })
            return name == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
