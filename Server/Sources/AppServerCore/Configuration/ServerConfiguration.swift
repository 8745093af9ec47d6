import Foundation

/// Everything the server needs to know to start, already resolved from flags, environment and defaults.
///
/// The executable builds one from its command line; tests build one directly (usually with
/// ``DatabaseLocation/memory``, a fixed secret and a low bcrypt cost).
public struct ServerConfiguration: Sendable {
    /// The address to bind to. Defaults to the loopback interface.
    public var host: String
    /// The port to bind to; `0` asks the system for a free one.
    public var port: Int
    /// Where the SQLite database lives.
    public var database: DatabaseLocation
    /// Signing secret for access tokens (HS256). Its UTF-8 bytes are the HMAC key; at least 32 bytes.
    public var jwtSecret: String
    /// How long an access token is valid.
    public var accessTokenLifetime: Duration
    /// How long a refresh token is valid after it was issued.
    public var refreshTokenLifetime: Duration
    /// How long after its first use a used refresh token may be presented again as the retry of a
    /// lost response (its unused child is withdrawn and a fresh pair issued) instead of counting
    /// as reuse. Zero disables the grace period: every second use is reuse.
    public var refreshReuseGrace: Duration
    /// An account to create (or promote) as admin at start.
    public var admin: AdminAccount?
    /// The bcrypt cost factor for password hashes (4...31).
    public var bcryptCost: Int
    /// Whether the `/v1/_test/...` routes exist.
    public var testMode: Bool
    /// How long a connection may go without receiving a part of a request (the whole header block,
    /// the next piece of a body) or, between requests, without a new one, before it is closed.
    /// Never applies while the server is answering a request it has fully read.
    public var idleTimeout: Duration
    /// The most connections served at once; further ones are closed as soon as they are accepted.
    public var maxConnections: Int
    /// The most connections one client address may hold at once; further ones from that address
    /// are closed as soon as they are accepted, while other addresses are still served.
    public var maxConnectionsPerAddress: Int
    /// How long a request may take to arrive completely (request line, headers and body), from
    /// its first byte; then the connection is closed. Unlike ``idleTimeout``, a trickle of bytes
    /// does not restart it.
    public var requestTimeout: Duration
    /// Sign-in and sign-up throttling; `nil` (the default here) turns it off. The executable turns
    /// it on with ``RateLimits/default`` unless `--test-mode` (or `--no-rate-limit`).
    public var rateLimits: RateLimits?
    /// DPoP (RFC 9449): off (the default), allowed or required, and its nonce and proof rules.
    public var dpop: DPoPSettings

    /// The smallest accepted signing secret, in bytes (the HS256 output size).
    public static let minimumSecretLength = 32
    /// The default access-token lifetime: 15 minutes.
    public static let defaultAccessTokenLifetime: Duration = .seconds(900)
    /// The default refresh-token lifetime: 30 days.
    public static let defaultRefreshTokenLifetime: Duration = .seconds(30 * 24 * 3600)
    /// The default refresh-token reuse grace period: 30 seconds.
    public static let defaultRefreshReuseGrace: Duration = .seconds(30)
    /// The default bcrypt cost.
    public static let defaultBcryptCost = 12
    /// The default idle timeout: 60 seconds (a slow mobile client sends a 64 KiB body well within it).
    public static let defaultIdleTimeout: Duration = .seconds(60)
    /// The default connection limit.
    public static let defaultMaxConnections = 512
    /// The default per-address connection limit: HTTP/1.1 clients open at most about 6
    /// connections to a host (browsers; URLSession's default is 6 on macOS, 4 on iOS), so 32 lets
    /// several of them share one address (a NAT) while one address holds at most 1/16 of the
    /// default connection limit.
    public static let defaultMaxConnectionsPerAddress = 32
    /// The default request deadline: 30 seconds. The largest valid request body is about 4 KB
    /// (1000 characters of up to 4 bytes in JSON), so even ~150 bytes per second is enough.
    public static let defaultRequestTimeout: Duration = .seconds(30)

    /// Creates a configuration; every argument but the secret has the server's default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation = .memory,
        jwtSecret: String,
        accessTokenLifetime: Duration = Self.defaultAccessTokenLifetime,
        refreshTokenLifetime: Duration = Self.defaultRefreshTokenLifetime,
        refreshReuseGrace: Duration = Self.defaultRefreshReuseGrace,
        admin: AdminAccount? = nil,
        bcryptCost: Int = Self.defaultBcryptCost,
        testMode: Bool = false,
        idleTimeout: Duration = Self.defaultIdleTimeout,
        maxConnections: Int = Self.defaultMaxConnections,
        rateLimits: RateLimits? = nil,
        maxConnectionsPerAddress: Int = Self.defaultMaxConnectionsPerAddress,
        requestTimeout: Duration = Self.defaultRequestTimeout,
        dpop: DPoPSettings = DPoPSettings()
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.jwtSecret = jwtSecret
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshReuseGrace = refreshReuseGrace
        self.admin = admin
        self.bcryptCost = bcryptCost
        self.testMode = testMode
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.rateLimits = rateLimits
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.requestTimeout = requestTimeout
        self.dpop = dpop
    }

    /// Allowed ports (0: any free one).
    public static let portRange = 0...65535
    /// Allowed access-token lifetimes, in seconds: 1 second to 1 day.
    public static let accessTokenLifetimeRange = 1...86_400
    /// Allowed refresh-token lifetimes, in seconds: 1 second to 3650 days.
    public static let refreshTokenLifetimeRange = 1...315_360_000
    /// Allowed reuse grace periods, in seconds: 0 (off) to 1 hour.
    public static let refreshReuseGraceRange = 0...3600
    /// Allowed bcrypt costs (bcrypt's own range).
    public static let bcryptCostRange = 4...31
    /// Allowed idle timeouts, in seconds: 1 second to 1 hour.
    public static let idleTimeoutRange = 1...3600
    /// Allowed connection limits, in all and per address.
    public static let maxConnectionsRange = 1...100_000
    /// Allowed request deadlines, in seconds: 1 second to 1 hour.
    public static let requestTimeoutRange = 1...3600

    /// Checks the values that cannot be expressed by the types. Every number has a bounded range,
    /// so that no later arithmetic (token expiry, timers) can overflow.
    /// - Throws: ``ConfigurationError`` naming the first bad value.
    public func validate() throws(ConfigurationError) {
        func seconds(_ duration: Duration, _ name: String, _ range: ClosedRange<Int>) throws(ConfigurationError) {
            let (whole, fraction) = duration.components
            guard fraction == 0, whole >= Int64(range.lowerBound), whole <= Int64(range.upperBound) else {
                throw .invalid("\(name) must be \(range.lowerBound)...\(range.upperBound) whole seconds, got \(duration)")
            }
        }
        guard Self.portRange.contains(port) else { throw .invalid("port must be 0...65535, got \(port)") }
        guard jwtSecret.utf8.count >= Self.minimumSecretLength else {
            throw .invalid("jwt secret must be at least \(Self.minimumSecretLength) bytes")
        }
        try seconds(accessTokenLifetime, "access token lifetime", Self.accessTokenLifetimeRange)
        try seconds(refreshTokenLifetime, "refresh token lifetime", Self.refreshTokenLifetimeRange)
        try seconds(refreshReuseGrace, "refresh reuse grace", Self.refreshReuseGraceRange)
        guard Self.bcryptCostRange.contains(bcryptCost) else { throw .invalid("bcrypt cost must be 4...31, got \(bcryptCost)") }
        try seconds(idleTimeout, "idle timeout", Self.idleTimeoutRange)
        try seconds(requestTimeout, "request timeout", Self.requestTimeoutRange)
        if let rateLimits {
            try seconds(rateLimits.window, "rate limit window", RateLimits.windowRange)
            for (value, name) in [
                (rateLimits.signInFailuresPerAccount, "sign-in failures per account"),
                (rateLimits.signInFailuresPerAddress, "sign-in failures per address"),
                (rateLimits.signUpsPerAddress, "sign-ups per address"),
                (rateLimits.anonymousSignInsPerAddress, "anonymous sign-ins per address"),
            ] where !RateLimits.countRange.contains(value) {
                throw .invalid("\(name) must be \(RateLimits.countRange.lowerBound)...\(RateLimits.countRange.upperBound), got \(value)")
            }
        }
        guard Self.maxConnectionsRange.contains(maxConnections) else {
            throw .invalid("max connections must be \(Self.maxConnectionsRange.lowerBound)...\(Self.maxConnectionsRange.upperBound), got \(maxConnections)")
        }
        guard Self.maxConnectionsRange.contains(maxConnectionsPerAddress) else {
            throw .invalid(
                "max connections per address must be \(Self.maxConnectionsRange.lowerBound)...\(Self.maxConnectionsRange.upperBound), got \(maxConnectionsPerAddress)"
            )
        }
        try dpop.validate()
        if let admin {
            guard Validation.isValidEmail(admin.email) else { throw .invalid("admin email is not a valid email address") }
            guard Validation.isValidPassword(admin.password) else {
                throw .invalid("admin password must be \(Validation.passwordRule), without U+0000")
            }
        }
    }
}

/// An administrator account named in the configuration.
public struct AdminAccount: Sendable {
    /// The admin's email address (sign-in name).
    public var email: String
    /// The admin's password.
    public var password: String

    /// Creates an admin account description.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// Where the database lives.
public enum DatabaseLocation: Sendable, Equatable {
    /// A temporary database that disappears when the server stops.
    case memory
    /// A SQLite file at this path (created when missing).
    case file(path: String)
}

/// A configuration value that cannot be used.
public enum ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// A value is out of range or malformed; the message says which.
    case invalid(String)
    /// A file the configuration needs could not be read or written.
    case file(path: String, reason: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .invalid(let message): message
        case .file(let path, let reason): "\(path): \(reason)"
        }
    }
}
