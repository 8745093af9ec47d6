import AppSDKHarness
import Foundation

/// SQL on the test database through `psql`, as the test itself (never the programs): to damage,
/// copy or roll back a row, and to make a read-only role. `psql` comes with PostgreSQL (the
/// newest `/usr/lib/postgresql/*/bin/psql`, else the one on `PATH`); the password goes through
/// `PGPASSWORD`, never the command line.
enum PostgresShell {
    /// The table the programs use (the store's default).
    static let table = "app_token_store"

    /// Runs `sql` (one or more statements) as the URL's user, or `user`/`password` instead;
    /// returns what psql printed (unaligned, tuples only), trimmed.
    @discardableResult
    static func run(_ sql: String, user: String? = nil, password: String? = nil) throws -> String {
        guard let url = PostgresEnvironment.url, let components = URLComponents(string: url), let host = components.host else {
            throw TestSetupError("APP_POSTGRES_URL is not set: psql has no database to run on")
        }
        let process = Process()
        process.executableURL = try executable()
        let database = String(components.path.dropFirst())
        process.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", String(components.port ?? 5432),
                             "-U", user ?? components.user ?? "", "-d", database.isEmpty ? (components.user ?? "") : database, "-c", sql]
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = password ?? components.password ?? ""
        environment["PGCONNECT_TIMEOUT"] = "10"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSetupError("psql failed (exit \(process.terminationStatus)): \(String(decoding: complaint, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `'text'` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The bytes of `account`'s row in the programs' table (or its unreadable table), as hex, one per row.
    static func rowHex(_ account: String, unreadable: Bool = false) throws -> [String] {
        let output = try run("SELECT encode(credentials, 'hex') FROM \(table)\(unreadable ? "_unreadable" : "") WHERE account = \(literal(account)) ORDER BY 1")
        return output.isEmpty ? [] : output.split(separator: "\n").map(String.init)
    }

    /// Makes `account`'s row hold the bytes `hex` (writing the row when the program removed it).
    static func setRow(_ account: String, hex: String) throws {
        try run("""
            INSERT INTO \(table) (account, credentials) VALUES (\(literal(account)), decode(\(literal(hex)), 'hex'))
            ON CONFLICT (account) DO UPDATE SET credentials = EXCLUDED.credentials
            """)
    }

    /// The psql program.
    static func executable() throws -> URL {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let candidate = "/usr/lib/postgresql/\(version)/bin/psql"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/psql"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        throw TestSetupError("psql is not installed (Debian: apt-get install postgresql-client)")
    }
}
