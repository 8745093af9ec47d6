public import Foundation
public import NetworkService

/// What a signed-in session needs to keep: the two tokens, when the access token
/// expires, whose session it is, and, for a session bound to a key (DPoP, RFC 9449), the key.
///
/// `description` and `debugDescription` never show the tokens, so a `Credentials`
/// value can be logged, printed or captured in a crash report without leaking them:
///
/// ```swift
/// let credentials = Credentials(accessToken: AccessToken("eyJ…"), refreshToken: "r1…",
///                               accessTokenExpiresAt: .now + 900, accountID: "42")
/// print(credentials)   // Credentials(account: 42, accessToken: <redacted>, refreshToken: <redacted>, expires: 2026-11-22T10:15:00Z)
/// ```
public struct Credentials: Sendable, Equatable, Codable {
    /// The bearer token sent with each API call; stored as the plain string it wraps.
    public var accessToken: AccessToken
    /// The one-use token that obtains the next access token.
    public var refreshToken: String
    /// When the access token stops working, if the server said so.
    ///
    /// Always between `Date.distantPast` and `Date.distantFuture` (years 0001 and 4001), or
    /// `nil`: a later or earlier date (a JWT whose `exp` is 1e19, a damaged store's 1e300) is
    /// clamped to the nearer bound, and a date that is not a number (NaN) is taken as unknown,
    /// whether it comes from the initializer, an assignment or a decoded store. Code that counts
    /// seconds to it (`Int(date.timeIntervalSinceNow)`) can then never overflow.
    public var accessTokenExpiresAt: Date? {
        didSet { if accessTokenExpiresAt != Self.bounded(accessTokenExpiresAt) { accessTokenExpiresAt = Self.bounded(accessTokenExpiresAt) } }
    }
    /// The account the session belongs to (the app's member id, an OAuth username, a JWT's `sub`).
    /// Stored under the key `memberID` (its first name), so every store ever written reads the same.
    public var accountID: String
    /// When the access token was received, if known; with ``accessTokenExpiresAt`` it gives
    /// the token's lifetime, which the session engine uses to fit its refresh margin. Bounded
    /// as ``accessTokenExpiresAt`` is.
    public var accessTokenIssuedAt: Date? {
        didSet { if accessTokenIssuedAt != Self.bounded(accessTokenIssuedAt) { accessTokenIssuedAt = Self.bounded(accessTokenIssuedAt) } }
    }
    /// The key the session's tokens are bound to (DPoP, RFC 9449), or `nil` for a bearer
    /// session. Made at sign-in and carried unchanged through every refresh, so every process
    /// that loads the session signs with the same key.
    ///
    /// Credentials with a key are stored as format version 2, which releases before 0.10 refuse
    /// to read (rather than drop the key): upgrade every process sharing a store before enabling
    /// DPoP. Their `Codable` form holds the private key (as it holds the tokens).
    public var dpopKey: DPoPKey? {
        get { binding?.key }
        set { binding = DPoPBinding.make(key: newValue, tokenType: accessTokenType) }
    }
    /// The access token's type as the server gave it (`"DPoP"`, RFC 9449 §5), or `nil` for
    /// Bearer. Stored in format version 2 only.
    public var accessTokenType: String? {
        get { binding?.tokenType }
        set { binding = DPoPBinding.make(key: dpopKey, tokenType: newValue) }
    }
    /// ``dpopKey`` and ``accessTokenType`` in one immutable object, `nil` for a bearer session:
    /// a value copied through every call and refresh carries one reference for them.
    private var binding: DPoPBinding?

    /// Creates credentials from the values a sign-in or refresh returned.
    public init(accessToken: AccessToken, refreshToken: String, accessTokenExpiresAt: Date?, accountID: String,
                accessTokenIssuedAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = Self.bounded(accessTokenExpiresAt)
        self.accountID = accountID
        self.accessTokenIssuedAt = Self.bounded(accessTokenIssuedAt)
    }

    /// Reads credentials a store wrote, the expiry and issue dates bounded (see
    /// ``accessTokenExpiresAt``): a damaged or hostile store's absurd date is clamped, never
    /// carried into arithmetic that would trap. A DPoP key is checked (a known algorithm, a
    /// public key of that algorithm, a 32-byte private key whose public key it is, where this
    /// build can tell); an error names the wrong field, never its value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(accessToken: try container.decode(AccessToken.self, forKey: .accessToken),
                  refreshToken: try container.decode(String.self, forKey: .refreshToken),
                  accessTokenExpiresAt: try container.decodeIfPresent(Date.self, forKey: .accessTokenExpiresAt),
                  accountID: try container.decode(String.self, forKey: .accountID),
                  accessTokenIssuedAt: try container.decodeIfPresent(Date.self, forKey: .accessTokenIssuedAt))
        dpopKey = try container.decodeIfPresent(StoredDPoPKey.self, forKey: .dpopKey)?.key()
        accessTokenType = try container.decodeIfPresent(String.self, forKey: .accessTokenType)
        if let accessTokenType, !Self.isTokenType(accessTokenType) {
            throw CredentialsFieldError(field: "accessTokenType", problem: "is not a token type (1 to 64 letters, digits, `-`, `_` or `.`)")
        }
    }

    /// Writes the credentials as the stores keep them: a bearer session's members exactly as
    /// before DPoP, and ``dpopKey`` and ``accessTokenType`` only when present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(accessTokenExpiresAt, forKey: .accessTokenExpiresAt)
        try container.encode(accountID, forKey: .accountID)
        try container.encodeIfPresent(accessTokenIssuedAt, forKey: .accessTokenIssuedAt)
        try container.encodeIfPresent(dpopKey.map(StoredDPoPKey.init), forKey: .dpopKey)
        try container.encodeIfPresent(accessTokenType, forKey: .accessTokenType)
    }

    /// Whether `text` is a plausible token type (`Bearer`, `DPoP`, `N_A`).
    static func isTokenType(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        }
    }

    /// `date` clamped to `Date.distantPast ... Date.distantFuture`; `nil` for NaN (or `nil`).
    static func bounded(_ date: Date?) -> Date? {
        guard let date, !date.timeIntervalSinceReferenceDate.isNaN else { return nil }
        return min(max(date, .distantPast), .distantFuture)
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, accessTokenExpiresAt, accessTokenIssuedAt, dpopKey, accessTokenType
        case accountID = "memberID"
    }

    /// Whether the access token expires within `leeway` seconds of `now` (or already has).
    ///
    /// When the token's lifetime is known, the leeway is capped at half of it, so a fixed
    /// leeway longer than a short lifetime (60 s for 30-second tokens) does not make every call
    /// refresh. The session engine passes a margin already fitted to the lifetime (at most a
    /// tenth of it, `RefreshTiming` in SessionEngine), below that cap; the cap protects callers
    /// that pass a fixed leeway. Credentials without an expiry are never considered expiring.
    public func accessTokenExpires(within leeway: TimeInterval, of now: Date) -> Bool {
        guard let accessTokenExpiresAt else { return false }
        var leeway = leeway
        if let accessTokenIssuedAt {
            leeway = min(leeway, max(0, accessTokenExpiresAt.timeIntervalSince(accessTokenIssuedAt)) / 2)
        }
        return accessTokenExpiresAt.timeIntervalSince(now) <= leeway
    }
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible {
    /// A description with both tokens redacted; a DPoP session's key shows its algorithm and
    /// thumbprint only (``DPoPKey/description``).
    public var description: String {
        let expiry = accessTokenExpiresAt.map { $0.formatted(.iso8601) } ?? "unknown"
        let key = dpopKey.map { ", \($0)" } ?? ""
        return "Credentials(account: \(accountID), accessToken: <redacted>, refreshToken: <redacted>, expires: \(expiry)\(key))"
    }

    /// The same as `description`: the tokens are redacted in debug output too.
    public var debugDescription: String { description }
}

extension Credentials: CustomReflectable {
    /// A mirror without the tokens or a DPoP key's private part, so `dump(_:)` and debuggers
    /// do not print them either.
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [
            ("accountID", accountID),
            ("accessToken", "<redacted>"),
            ("refreshToken", "<redacted>"),
            ("accessTokenExpiresAt", accessTokenExpiresAt as Any),
        ]
        if dpopKey != nil || accessTokenType != nil {
            children += [("accessTokenType", accessTokenType as Any), ("dpopKey", dpopKey as Any)]
        }
        return Mirror(self, children: children)
    }
}

/// A session's DPoP key and access-token type, which ``Credentials`` keeps behind one
/// reference.
private final class DPoPBinding: Sendable, Equatable {
    let key: DPoPKey?
    let tokenType: String?

    private init(key: DPoPKey?, tokenType: String?) {
        self.key = key
        self.tokenType = tokenType
    }

    /// The binding of `key` and `tokenType`, or `nil` when both are.
    static func make(key: DPoPKey?, tokenType: String?) -> DPoPBinding? {
        key == nil && tokenType == nil ? nil : DPoPBinding(key: key, tokenType: tokenType)
    }

    static func == (lhs: DPoPBinding, rhs: DPoPBinding) -> Bool {
        lhs.key == rhs.key && lhs.tokenType == rhs.tokenType
    }
}
