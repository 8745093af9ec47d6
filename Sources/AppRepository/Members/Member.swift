public import Foundation

/// A member of the app: a person with an account, or an anonymous one.
public struct Member: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The member's id.
    public let id: UUID
    /// The name shown to others.
    public let nickname: String
    /// The email address; `nil` for an anonymous member.
    public let email: String?
    /// What the member may do.
    public let role: MemberRole
    /// When the account was made.
    public let createdAt: Date

    /// Creates a member value (for tests and previews; the server makes real ones).
    public init(id: UUID, nickname: String, email: String?, role: MemberRole, createdAt: Date) {
        self.id = id
        self.nickname = nickname
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    /// Whether the member signed in anonymously.
    public var isAnonymous: Bool { email == nil }
}

/// A member's role. An open set, so a role added by the server decodes too.
public struct MemberRole: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The role as sent, for example `"admin"`.
    public let rawValue: String
    /// Wraps a role.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Decodes a role from a JSON string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the role as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// An ordinary member.
    public static let member = MemberRole(rawValue: "member")
    /// An administrator: may list reports and remove anyone's content.
    public static let admin = MemberRole(rawValue: "admin")

    /// The raw value.
    public var description: String { rawValue }
}

extension Member {
    /// Encodes the member as the contract writes it: the id in lower case (a `UUID` alone
    /// encodes in upper case), so `--json` output and re-sent values match the server's.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(nickname, forKey: .nickname)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
