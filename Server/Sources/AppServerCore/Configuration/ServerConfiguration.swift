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
        testMode: Bool = false
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
    }

    /// Checks the values that cannot be expressed by the types.
    /// - Throws: ``ConfigurationError`` naming the first bad value.
    public func validate() throws(ConfigurationError) {
        guard (0...65535).contains(port) else { throw .invalid("port must be 0...65535, got \(port)") }
        guard jwtSecret.utf8.count >= Self.minimumSecretLength else {
            throw .invalid("jwt secret must be at least \(Self.minimumSecretLength) bytes")
        }
        guard accessTokenLifetime >= .seconds(1) else { throw .invalid("access token lifetime must be at least 1 second") }
        guard refreshTokenLifetime >= .seconds(1) else { throw .invalid("refresh token lifetime must be at least 1 second") }
        guard refreshReuseGrace >= .zero else { throw .invalid("refresh reuse grace must be 0 or more seconds") }
        guard (4...31).contains(bcryptCost) else { throw .invalid("bcrypt cost must be 4...31, got \(bcryptCost)") }
        if let admin {
            guard Validation.isValidEmail(admin.email) else { throw .invalid("admin email is not a valid email address") }
            guard Validation.isValidPassword(admin.password) else {
                throw .invalid("admin password must be \(Validation.passwordLength.lowerBound)-\(Validation.passwordLength.upperBound) characters")
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
