#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``TokenStore`` could not load, save or clear credentials, and which file (or, for a
/// store outside the file system, which location) it was.
///
/// Switch on ``kind`` to decide what to do; print the error to tell a person. The
/// description names the file and the cause, and never contains a token, a passphrase
/// or key material:
///
/// ```swift
/// do {
///     credentials = try await store.load()
/// } catch {
///     switch error.kind {
///     case .decryptionFailed: print("\(error)")   // "token store /…/tokens.enc: wrong key or passphrase, or the file was modified"
///     case .insecurePermissions: print("run chmod 600 on \(error.path ?? "the file")")
///     default: throw error
///     }
/// }
/// ```
public struct TokenStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set: new kinds may be added without breaking callers,
    /// so a `switch` over it needs a `default:` case.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name, such as `"decryptionFailed"`.
        public let rawValue: String

        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file exists but is not credentials this store can read: empty, truncated,
        /// not JSON, missing fields, or a file of the other store type.
        public static let unreadable = Kind(rawValue: "unreadable")
        /// An encrypted file did not decrypt: wrong key or passphrase, or the file was modified.
        public static let decryptionFailed = Kind(rawValue: "decryptionFailed")
        /// The file was written in a format version this code does not know (or its version byte was modified).
        public static let unsupportedFormatVersion = Kind(rawValue: "unsupportedFormatVersion")
        /// The file (or key file) can be accessed by group or others; it is refused unless the caller opts out.
        public static let insecurePermissions = Kind(rawValue: "insecurePermissions")
        /// A system call failed (see ``TokenStoreError/errorNumber``): no permission, disk full, not a folder, ….
        public static let io = Kind(rawValue: "io")
        /// The exclusive section could not be entered (the lock file could not be opened or locked, or waiting timed out).
        public static let lockFailed = Kind(rawValue: "lockFailed")
        /// The key material is unusable: wrong length, an unreadable key file, bad key-derivation parameters,
        /// or libsodium could not derive or hold the key.
        public static let invalidKey = Kind(rawValue: "invalidKey")
        /// The credentials cannot be stored as they are (for example, an expiry date that is not finite).
        public static let invalidCredentials = Kind(rawValue: "invalidCredentials")
        /// The platform's secure storage (the Keychain) refused the operation, for a reason that
        /// does not pass by itself (a missing entitlement, say; the reason gives the `OSStatus`).
        /// A locked device is ``unavailable``.
        public static let keychain = Kind(rawValue: "keychain")
        /// The store can be read but refuses every write: a database in read-only mode (a hot
        /// standby, or `default_transaction_read_only` set for the database or the role). Nothing
        /// was changed, and the stored credentials are as they were. Not transient: it lasts until
        /// the database is made writable (promoted, the setting turned off), so point the store at
        /// a writable one. (A read-only folder or file system is ``io``, with its `errno`.)
        public static let readOnly = Kind(rawValue: "readOnly")
        /// The store's backend could not be reached or dropped the connection (a database that is
        /// down, restarting or out of connections), or cannot be used for now: the Keychain of a
        /// device that is locked or not yet unlocked since it started (a prewarmed launch,
        /// `errSecInteractionNotAllowed`), or an exclusive section whose background time ran out.
        /// Nothing was changed by the failed call, and the stored credentials are as they were:
        /// try again later. See ``isTransient``.
        public static let unavailable = Kind(rawValue: "unavailable")

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// The file the error is about, when there is one; for a store outside the file system,
    /// where the credentials are (a database, table and account), never with a password.
    public var path: String?
    /// A short human explanation of the cause, without secrets.
    public var reason: String
    /// The `errno` of the failed system call, when the cause was one.
    public var errorNumber: Int32?
    /// The underlying error, when another layer reported one (never a decoding error that could quote file contents).
    public var underlyingError: (any Error & Sendable)?

    /// Creates an error; stores written outside this module may use it too.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - path: The file concerned, if any.
    ///   - reason: A short explanation without secrets.
    ///   - errorNumber: The `errno` of a failed system call, if any.
    ///   - underlyingError: The error another layer reported, if any.
    public init(
        kind: Kind,
        path: String? = nil,
        reason: String,
        errorNumber: Int32? = nil,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.errorNumber = errorNumber
        self.underlyingError = underlyingError
    }

    /// Whether the failure may pass by itself (``Kind/unavailable``): the stored credentials are
    /// intact and the same call may succeed later, so a caller keeps the session and retries
    /// instead of signing the user out.
    public var isTransient: Bool {
        kind == .unavailable
    }

    /// For example `token store /home/a/.app/tokens.enc: wrong key or passphrase, or the file was modified`.
    public var description: String {
        var text = "token store"
        if let path { text += " \(path)" }
        text += ": \(reason)"
        if let errorNumber {
            text += " (\(String(cString: strerror(errorNumber))), errno \(errorNumber))"
        }
        return text
    }
}
