public import Foundation

/// Who wrote something, as others see them.
public struct Author: Codable, Sendable, Equatable, Hashable {
    /// The member's id.
    public let id: UUID
    /// The member's nickname.
    public let nickname: String

    /// Creates an author value.
    public init(id: UUID, nickname: String) {
        self.id = id
        self.nickname = nickname
    }
}

extension Author {
    /// Encodes the author as the contract writes it: the id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(nickname, forKey: .nickname)
    }
}
