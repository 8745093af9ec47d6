public import Foundation
public import NetworkService

/// The tokens a sign-in or refresh returns. Printing it never shows the tokens.
public struct Tokens: Codable, Sendable, Equatable {
    /// The bearer token for API calls.
    public let accessToken: AccessToken
    /// The one-use token that obtains the next access token.
    public let refreshToken: String
    /// Always `"Bearer"`.
    public let tokenType: String
    /// Seconds the access token is valid for, counted from when it was issued.
    public let expiresIn: Int
    /// When the access token expires, by the server's clock.
    public let expiresAt: Date

    /// Creates tokens, for example in a custom ``TokenRefresher`` for a server that
    /// answers in another shape.
    public init(accessToken: AccessToken, refreshToken: String, tokenType: String = "Bearer", expiresIn: Int, expiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
    }
}

extension Tokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Tokens(<redacted>, expiresIn: 900)`.
    public var description: String { "Tokens(<redacted>, expiresIn: \(expiresIn))" }
    /// The same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the tokens.
    public var customMirror: Mirror { Mirror(self, children: ["expiresIn": expiresIn, "expiresAt": expiresAt]) }
}

/// What sign-up, sign-in and anonymous sign-in return: the member and their first tokens.
public struct AuthSession: Codable, Sendable, Equatable {
    /// The signed-in member.
    public let member: Member
    /// The session's tokens.
    public let tokens: Tokens

    /// Creates a session value.
    public init(member: Member, tokens: Tokens) {
        self.member = member
        self.tokens = tokens
    }
}

/// What `POST /v1/auth/refresh` returns.
struct RefreshResult: Codable, Sendable {
    let tokens: Tokens
}
