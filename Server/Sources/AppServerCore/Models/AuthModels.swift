public import Foundation

/// A member's role.
public enum Role: String, Codable, Sendable, Equatable {
    /// An ordinary member.
    case member
    /// An administrator: may read reports and remove anyone's content.
    case admin
}

/// `Member` of the contract.
public struct MemberDTO: Codable, Sendable, Equatable {
    /// The member's id.
    public var id: UUID
    /// The display name.
    public var nickname: String
    /// The email address; `nil` for an anonymous member.
    public var email: String?
    /// The member's role.
    public var role: Role
    /// When the member signed up.
    public var createdAt: Date

    /// Creates a member.
    public init(id: UUID, nickname: String, email: String?, role: Role, createdAt: Date) {
        self.id = id
        self.nickname = nickname
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    /// Encodes the contract's JSON. `email` must be encoded as `null`, not left out; ids are lower-case like the tokens' `sub`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(nickname, forKey: .nickname)
        try container.encode(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// `Tokens` of the contract.
public struct TokensDTO: Codable, Sendable, Equatable {
    /// The JWT access token.
    public var accessToken: String
    /// The opaque, one-use refresh token.
    public var refreshToken: String
    /// `Bearer`, or `DPoP` for a session bound to a DPoP key (RFC 9449 §5).
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    /// When the access token expires.
    public var expiresAt: Date

    /// Creates a token pair description.
    public init(accessToken: String, refreshToken: String, tokenType: String = "Bearer", expiresIn: Int, expiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
    }
}

/// `AuthSession` of the contract: the answer to sign-up, sign-in and anonymous sign-in.
public struct AuthSessionDTO: Codable, Sendable, Equatable {
    /// The signed-in member.
    public var member: MemberDTO
    /// The session's first tokens.
    public var tokens: TokensDTO

    /// Creates an auth session.
    public init(member: MemberDTO, tokens: TokensDTO) {
        self.member = member
        self.tokens = tokens
    }
}

/// `RefreshResult` of the contract.
public struct RefreshResultDTO: Codable, Sendable, Equatable {
    /// The rotated tokens.
    public var tokens: TokensDTO

    /// Creates a refresh result.
    public init(tokens: TokensDTO) {
        self.tokens = tokens
    }
}
