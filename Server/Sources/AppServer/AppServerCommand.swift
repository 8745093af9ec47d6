import AppServerCore
import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `app-server`: the reference HTTP server of the SDK.
///
/// Every option can also come from an environment variable; the flag wins.
@main
struct AppServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-server",
        abstract: "The reference HTTP server of the app SDK (JSON API under /v1).",
        discussion: """
            Every option can also be set by the environment variable named in its help; a flag wins over the environment.
            Once listening, the server prints exactly one line to stdout:
              app-server listening on http://127.0.0.1:PORT
            Logs go to stderr. SIGINT and SIGTERM shut it down cleanly.
            """
    )

    @Option(help: "Address to bind to. [APP_HOST, default 127.0.0.1]")
    var host: String?

    @Option(help: "Port to bind to, 0-65535; 0 picks a free one. [APP_PORT, default 8080]")
    var port: Int?

    @Option(help: "SQLite file path, or :memory: for a temporary database. [APP_DATABASE, default <data-dir>/app.sqlite]")
    var database: String?

    @Option(help: "Folder for the database and the generated signing secret. [APP_DATA_DIR, default ./.app-server-data]")
    var dataDir: String?

    @Option(help: "Access-token lifetime in seconds, 1-86400. [APP_ACCESS_TOKEN_LIFETIME, default 900]")
    var accessTokenLifetime: Int?

    @Option(help: "Refresh-token lifetime in seconds, 1-315360000 (3650 days). [APP_REFRESH_TOKEN_LIFETIME, default 2592000 (30 days)]")
    var refreshTokenLifetime: Int?

    @Option(help: "Seconds after its first use during which a used refresh token may be presented again as the retry of a lost response (while the token it issued is unused), 0-3600; 0 disables. [APP_REFRESH_REUSE_GRACE, default 30]")
    var refreshReuseGrace: Int?

    @Option(help: "HS256 signing secret, at least 32 bytes. [APP_JWT_SECRET, default: generated once into <data-dir>/jwt-secret (mode 0600); random per run with :memory:]")
    var jwtSecret: String?

    @Option(help: "Email of an admin account to create or promote at start. [APP_ADMIN_EMAIL]")
    var adminEmail: String?

    @Option(help: "Password of that admin account. [APP_ADMIN_PASSWORD]")
    var adminPassword: String?

    @Option(help: "bcrypt cost for password hashes, 4-31. [APP_BCRYPT_COST, default 12]")
    var bcryptCost: Int?

    @Option(help: "Seconds a connection may go without receiving a request part (the whole header block, the next piece of a body) or, between requests, a new request, before it is closed; 1-3600. [APP_IDLE_TIMEOUT, default 60]")
    var idleTimeout: Int?

    @Option(help: "Most connections open at once (more are closed as they arrive), 1-100000; must fit under the file descriptor limit (ulimit -n), which the server raises up to its hard limit if needed. [APP_MAX_CONNECTIONS, default 512]")
    var maxConnections: Int?

    @Option(help: "Most connections open at once from one client address (more from it are closed as they arrive), 1-100000. [APP_MAX_CONNECTIONS_PER_ADDRESS, default 32; with --test-mode, --max-connections]")
    var maxConnectionsPerAddress: Int?

    @Option(help: "Seconds a request may take to arrive completely (request line, headers and body) from its first byte, before the connection is closed; 1-3600. [APP_REQUEST_TIMEOUT, default 30]")
    var requestTimeout: Int?

    @Flag(inversion: .prefixedNo, help: "Throttle sign-ins, sign-ups and anonymous sign-ins (429 rate_limited with Retry-After). [default: on, off with --test-mode]")
    var rateLimit: Bool?

    @Option(help: "Sliding window of the sign-in/sign-up limits in seconds, 1-86400. [APP_RATE_LIMIT_WINDOW, default 900]")
    var rateLimitWindow: Int?

    @Option(help: "Wrong-password sign-ins per account within the window, 1-1000000. [APP_SIGN_IN_FAILURES_PER_ACCOUNT, default 10]")
    var signInFailuresPerAccount: Int?

    @Option(help: "Failed sign-ins per client address within the window, 1-1000000. [APP_SIGN_IN_FAILURES_PER_ADDRESS, default 100]")
    var signInFailuresPerAddress: Int?

    @Option(help: "Sign-ups per client address within the window, 1-1000000. [APP_SIGN_UPS_PER_ADDRESS, default 20]")
    var signUpsPerAddress: Int?

    @Option(help: "Anonymous sign-ins per client address within the window, 1-1000000. [APP_ANONYMOUS_SIGN_INS_PER_ADDRESS, default 20]")
    var anonymousSignInsPerAddress: Int?

    @Option(help: "DPoP (RFC 9449) sender-constrained sessions: off, allowed (a sign-in with a proof is bound to its key; bearer sessions still work) or required (sign-ins need a proof; Bearer tokens are refused). [APP_DPOP, default off]")
    var dpop: String?

    @Option(help: "DPoP proof algorithms accepted, comma-separated, from ES256,EdDSA. [APP_DPOP_ALGS, default ES256,EdDSA]")
    var dpopAlgs: String?

    @Option(help: "DPoP nonces (RFC 9449 §8, §9): off, or required (a proof must carry a nonce from a DPoP-Nonce header). [APP_DPOP_NONCE, default off]")
    var dpopNonce: String?

    @Option(help: "Seconds one DPoP nonce slot lasts, 1-3600; a nonce is accepted for one to two slots. [APP_DPOP_NONCE_LIFETIME, default 60]")
    var dpopNonceLifetime: String?

    @Option(help: "Window of a DPoP proof's iat as PAST/FUTURE seconds (1-3600 / 0-300). [APP_DPOP_IAT_WINDOW, default 60/5]")
    var dpopIatWindow: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. [APP_LOG_LEVEL, default info]")
    var logLevel: String?

    @Flag(help: "Enable the /v1/_test/... routes (counters, reset, expiring tokens, refresh faults). Never in production.")
    var testMode = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try resolve(environment: environment)
        let level = try logLevel(environment: environment)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "app-server")
        logger.logLevel = level

        let app = try await AppServer.build(configuration: settings, logger: logger) { url in
            // Exactly one line on stdout, unbuffered, for scripts: grep -o 'http://[^ ]*'
            FileHandle.standardOutput.write(Data("app-server listening on \(url)\n".utf8))
        }
        try await app.runService()
    }

    private func resolve(environment: [String: String]) throws -> ServerConfiguration {
        func value(_ flag: String?, _ key: String) -> String? {
            if let flag { return flag }
            if let env = environment[key], !env.isEmpty { return env }
            return nil
        }
        func integer(_ flag: Int?, _ key: String, name: String) throws -> Int? {
            if let flag { return flag }
            guard let text = value(nil, key) else { return nil }
            guard let number = Int(text) else { throw ValidationError("\(key) must be an integer (\(name))") }
            return number
        }

        let dataDir = value(dataDir, "APP_DATA_DIR") ?? "./.app-server-data"
        let databasePath = value(database, "APP_DATABASE") ?? (dataDir as NSString).appendingPathComponent("app.sqlite")
        let location: DatabaseLocation = databasePath == ":memory:" ? .memory : .file(path: databasePath)
        if case .file(let path) = location {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }

        let secret: String
        if let given = value(jwtSecret, "APP_JWT_SECRET") {
            secret = given
            // The data folder holds the database (password and token hashes): refuse it when group
            // or others can get in (SecretFile checks it itself when it holds the secret).
            if case .file(let path) = location,
               (path as NSString).deletingLastPathComponent.standardizedPath == dataDir.standardizedPath {
                try SecretFile.requirePrivate(dataDir, what: "the data folder", fix: "chmod 700")
            }
        } else if location == .memory {
            secret = RandomToken.make(byteCount: 32)
        } else {
            secret = try SecretFile.loadOrCreate(in: dataDir)
        }

        var admin: AdminAccount?
        switch (value(adminEmail, "APP_ADMIN_EMAIL"), value(adminPassword, "APP_ADMIN_PASSWORD")) {
        case (let email?, let password?): admin = AdminAccount(email: email, password: password)
        case (nil, nil): admin = nil
        default: throw ValidationError("--admin-email and --admin-password go together")
        }

        var rateLimits: RateLimits?
        if rateLimit ?? !testMode {
            let defaults = RateLimits.default
            rateLimits = RateLimits(
                window: .seconds(try integer(rateLimitWindow, "APP_RATE_LIMIT_WINDOW", name: "seconds") ?? Int(defaults.window.components.seconds)),
                signInFailuresPerAccount: try integer(signInFailuresPerAccount, "APP_SIGN_IN_FAILURES_PER_ACCOUNT", name: "count")
                    ?? defaults.signInFailuresPerAccount,
                signInFailuresPerAddress: try integer(signInFailuresPerAddress, "APP_SIGN_IN_FAILURES_PER_ADDRESS", name: "count")
                    ?? defaults.signInFailuresPerAddress,
                signUpsPerAddress: try integer(signUpsPerAddress, "APP_SIGN_UPS_PER_ADDRESS", name: "count") ?? defaults.signUpsPerAddress,
                anonymousSignInsPerAddress: try integer(anonymousSignInsPerAddress, "APP_ANONYMOUS_SIGN_INS_PER_ADDRESS", name: "count")
                    ?? defaults.anonymousSignInsPerAddress
            )
        }

        let connections = try integer(maxConnections, "APP_MAX_CONNECTIONS", name: "count") ?? ServerConfiguration.defaultMaxConnections
        // Like the rate limits, the per-address limit is off in test mode unless given: test
        // suites run many clients from 127.0.0.1.
        let connectionsPerAddress = try integer(maxConnectionsPerAddress, "APP_MAX_CONNECTIONS_PER_ADDRESS", name: "count")
            ?? (testMode ? connections : ServerConfiguration.defaultMaxConnectionsPerAddress)
        let dpopSettings: DPoPSettings
        do {
            dpopSettings = try DPoPSettings.parse(
                mode: value(dpop, "APP_DPOP"), algorithms: value(dpopAlgs, "APP_DPOP_ALGS"), nonce: value(dpopNonce, "APP_DPOP_NONCE"),
                nonceLifetime: value(dpopNonceLifetime, "APP_DPOP_NONCE_LIFETIME"), iatWindow: value(dpopIatWindow, "APP_DPOP_IAT_WINDOW")
            )
        } catch {
            throw ValidationError(error.description)
        }
        let configuration = ServerConfiguration(
            host: value(host, "APP_HOST") ?? "127.0.0.1",
            port: try integer(port, "APP_PORT", name: "port") ?? 8080,
            database: location,
            jwtSecret: secret,
            accessTokenLifetime: .seconds(try integer(accessTokenLifetime, "APP_ACCESS_TOKEN_LIFETIME", name: "seconds") ?? 900),
            refreshTokenLifetime: .seconds(try integer(refreshTokenLifetime, "APP_REFRESH_TOKEN_LIFETIME", name: "seconds") ?? 30 * 24 * 3600),
            refreshReuseGrace: .seconds(try integer(refreshReuseGrace, "APP_REFRESH_REUSE_GRACE", name: "seconds") ?? 30),
            admin: admin,
            bcryptCost: try integer(bcryptCost, "APP_BCRYPT_COST", name: "cost") ?? ServerConfiguration.defaultBcryptCost,
            testMode: testMode,
            idleTimeout: .seconds(try integer(idleTimeout, "APP_IDLE_TIMEOUT", name: "seconds") ?? 60),
            maxConnections: connections,
            rateLimits: rateLimits,
            maxConnectionsPerAddress: connectionsPerAddress,
            requestTimeout: .seconds(
                try integer(requestTimeout, "APP_REQUEST_TIMEOUT", name: "seconds") ?? Int(ServerConfiguration.defaultRequestTimeout.components.seconds)
            ),
            dpop: dpopSettings
        )
        do {
            try configuration.validate()
            try FileDescriptorLimit.makeRoom(forConnections: configuration.maxConnections)
        } catch {
            throw ValidationError(error.description)
        }
        return configuration
    }

    private func logLevel(environment: [String: String]) throws -> Logger.Level {
        let name = logLevel ?? environment["APP_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: name.lowercased()) else {
            throw ValidationError("unknown log level \(name)")
        }
        return level
    }
}

extension String {
    /// The path with `.`, `..` and a trailing slash resolved, for comparing folders.
    fileprivate var standardizedPath: String { (self as NSString).standardizingPath }
}
