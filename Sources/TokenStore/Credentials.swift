public import Foundation

/// What a signed-in session needs to keep: the two tokens, when the access token
/// expires, and whose session it is.
///
/// `description` and `debugDescription` never show the tokens, so a `Credentials`
/// value can be logged, printed or captured in a crash report without leaking them:
///
/// ```swift
/// let credentials = Credentials(accessToken: "eyJ…", refreshToken: "r1…",
///                               accessTokenExpiresAt: .now + 900, memberID: "42")
/// print(credentials)   // Credentials(member: 42, accessToken: <redacted>, refreshToken: <redacted>, expires: 2026-11-22T10:15:00Z)
/// ```
public struct Credentials: Sendable, Equatable, Codable {
    /// The bearer token sent with each API call.
    public var accessToken: String
    /// The one-use token that obtains the next access token.
    public var refreshToken: String
    /// When the access token stops working, if the server said so.
    public var accessTokenExpiresAt: Date?
    /// The member the session belongs to.
    public var memberID: String
    /// When the access token was received, if known; with ``accessTokenExpiresAt`` it gives
    /// the token's lifetime, which caps the refresh leeway (see ``accessTokenExpires(within:of:)``).
    public var accessTokenIssuedAt: Date?

    /// Creates credentials from the values a sign-in or refresh returned.
    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date?, memberID: String,
                accessTokenIssuedAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.memberID = memberID
        self.accessTokenIssuedAt = accessTokenIssuedAt
    }

    /// Whether the access token expires within `leeway` seconds of `now` (or already has).
    ///
    /// When the token's lifetime is known, the leeway is at most half of it: a server that
    /// issues 30-second tokens with a 60-second leeway would otherwise make every call
    /// refresh. Credentials without an expiry are never considered expiring.
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
        return "Credentials(member: \(memberID), accessToken: <redacted>, refreshToken: <redacted>, expires: \(expiry))"
    }

    /// The same as `description`: the tokens are redacted in debug output too.
    public var debugDescription: String { description }
}

extension Credentials: CustomReflectable {
    /// A mirror without the tokens, so `dump(_:)` and debuggers do not print them either.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "memberID": memberID,
            "accessToken": "<redacted>",
            "refreshToken": "<redacted>",
            "accessTokenExpiresAt": accessTokenExpiresAt as Any,
        ])
    }
}
