public import Foundation

/// What a signed-in session needs to keep: the two tokens, when the access token
/// expires, and whose session it is.
///
/// `description` and `debugDescription` never show the tokens, so a `Credentials`
/// value can be logged, printed or captured in a crash report without leaking them:
///
/// ```swift
/// let credentials = Credentials(accessToken: "eyJ…", refreshToken: "r1…",
///                               accessTokenExpiresAt: .now + 900, accountID: "42")
/// print(credentials)   // Credentials(account: 42, accessToken: <redacted>, refreshToken: <redacted>, expires: 2026-11-22T10:15:00Z)
/// ```
public struct Credentials: Sendable, Equatable, Codable {
    /// The bearer token sent with each API call.
    public var accessToken: String
    /// The one-use token that obtains the next access token.
    public var refreshToken: String
    /// When the access token stops working, if the server said so.
    public var accessTokenExpiresAt: Date?
    /// The account the session belongs to (the app's member id, an OAuth username, a JWT's `sub`).
    /// Stored under the key `memberID`, so stores written before the rename read the same.
    public var accountID: String
    /// When the access token was received, if known; with ``accessTokenExpiresAt`` it gives
    /// the token's lifetime, which the session engine uses to fit its refresh margin.
    public var accessTokenIssuedAt: Date?

    /// The account the session belongs to.
    @available(*, deprecated, renamed: "accountID")
    public var memberID: String {
        get { accountID }
        set { accountID = newValue }
    }

    /// Creates credentials from the values a sign-in or refresh returned.
    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date?, accountID: String,
                accessTokenIssuedAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.accountID = accountID
        self.accessTokenIssuedAt = accessTokenIssuedAt
    }

    /// Creates credentials from the values a sign-in or refresh returned.
    @available(*, deprecated, renamed: "init(accessToken:refreshToken:accessTokenExpiresAt:accountID:accessTokenIssuedAt:)")
    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date?, memberID: String,
                accessTokenIssuedAt: Date? = nil) {
        self.init(accessToken: accessToken, refreshToken: refreshToken, accessTokenExpiresAt: accessTokenExpiresAt,
                  accountID: memberID, accessTokenIssuedAt: accessTokenIssuedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, accessTokenExpiresAt, accessTokenIssuedAt
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
    /// A description with both tokens redacted.
    public var description: String {
        let expiry = accessTokenExpiresAt.map { $0.formatted(.iso8601) } ?? "unknown"
        return "Credentials(account: \(accountID), accessToken: <redacted>, refreshToken: <redacted>, expires: \(expiry))"
    }

    /// The same as `description`: the tokens are redacted in debug output too.
    public var debugDescription: String { description }
}

extension Credentials: CustomReflectable {
    /// A mirror without the tokens, so `dump(_:)` and debuggers do not print them either.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accountID": accountID,
            "accessToken": "<redacted>",
            "refreshToken": "<redacted>",
            "accessTokenExpiresAt": accessTokenExpiresAt as Any,
        ])
    }
}
