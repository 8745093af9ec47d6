public import Foundation

/// `Author` of the contract.
public struct AuthorDTO: Codable, Sendable, Equatable {
    /// The author's member id.
    public var id: UUID
    /// The author's nickname.
    public var nickname: String

    /// Creates an author.
    public init(id: UUID, nickname: String) {
        self.id = id
        self.nickname = nickname
    }

    /// Encodes the contract's JSON. Ids are written lower-case, like the tokens' `sub`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(nickname, forKey: .nickname)
    }
}

/// `Question` of the contract.
public struct QuestionDTO: Codable, Sendable, Equatable, Identifiable {
    /// The question's id.
    public var id: Int
    /// The question text.
    public var content: String
    /// How many answers it has.
    public var answerCount: Int
    /// Whether the caller has answered it.
    public var isAnswered: Bool
    /// When it was created.
    public var createdAt: Date
}

/// `Answer` of the contract.
public struct AnswerDTO: Codable, Sendable, Equatable, Identifiable {
    /// The answer's id.
    public var id: Int
    /// The question it answers.
    public var questionId: Int
    /// The answer text.
    public var content: String
    /// Who wrote it.
    public var author: AuthorDTO
    /// Whether the caller wrote it.
    public var isMine: Bool
    /// When it was written.
    public var createdAt: Date
}

/// `Post` of the contract.
public struct PostDTO: Codable, Sendable, Equatable, Identifiable {
    /// The post's id.
    public var id: Int
    /// The post text.
    public var content: String
    /// Whether the author is hidden.
    public var isAnonymous: Bool
    /// Who wrote it; `nil` for an anonymous post.
    public var author: AuthorDTO?
    /// Whether the caller wrote it.
    public var isMine: Bool
    /// How many members like it.
    public var likeCount: Int
    /// How many comments it has.
    public var commentCount: Int
    /// Whether the caller likes it.
    public var isLiked: Bool
    /// When it was written.
    public var createdAt: Date

    /// Encodes the contract's JSON. `author` must be encoded as `null` for an anonymous post, not left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(content, forKey: .content)
        try container.encode(isAnonymous, forKey: .isAnonymous)
        try container.encode(author, forKey: .author)
        try container.encode(isMine, forKey: .isMine)
        try container.encode(likeCount, forKey: .likeCount)
        try container.encode(commentCount, forKey: .commentCount)
        try container.encode(isLiked, forKey: .isLiked)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// `Comment` of the contract.
public struct CommentDTO: Codable, Sendable, Equatable, Identifiable {
    /// The comment's id.
    public var id: Int
    /// The post it belongs to.
    public var postId: Int
    /// The comment text.
    public var content: String
    /// Who wrote it.
    public var author: AuthorDTO
    /// Whether the caller wrote it.
    public var isMine: Bool
    /// When it was written.
    public var createdAt: Date
}

/// What a report points at.
public enum ReportTargetType: String, Codable, Sendable, Equatable, CaseIterable {
    /// A post.
    case post
    /// A comment.
    case comment
    /// An answer.
    case answer
}

/// `Report` of the contract.
public struct ReportDTO: Codable, Sendable, Equatable, Identifiable {
    /// The report's id.
    public var id: Int
    /// The kind of content reported.
    public var targetType: ReportTargetType
    /// The id of the content reported.
    public var targetId: Int
    /// Why it was reported.
    public var reason: String
    /// Who reported it.
    public var author: AuthorDTO
    /// Whether the caller reported it.
    public var isMine: Bool
    /// When it was reported.
    public var createdAt: Date
}

/// `LikeState` of the contract.
public struct LikeStateDTO: Codable, Sendable, Equatable {
    /// How many members like the post now.
    public var likeCount: Int
    /// Whether the caller likes it now.
    public var isLiked: Bool

    /// Creates a like state.
    public init(likeCount: Int, isLiked: Bool) {
        self.likeCount = likeCount
        self.isLiked = isLiked
    }
}

/// `Page<T>` of the contract.
public struct PageDTO<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The items, newest (highest id) first.
    public var items: [Item]
    /// The `threshold` that fetches the next page; `nil` when there is none.
    public var nextThreshold: Int?
    /// Whether another page follows.
    public var hasNext: Bool

    /// Creates a page.
    public init(items: [Item], nextThreshold: Int?, hasNext: Bool) {
        self.items = items
        self.nextThreshold = nextThreshold
        self.hasNext = hasNext
    }

    /// Encodes the contract's JSON. `nextThreshold` must be encoded as `null` on the last page, not left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextThreshold, forKey: .nextThreshold)
        try container.encode(hasNext, forKey: .hasNext)
    }
}

/// The error body: `{"error": {"code": ..., "message": ...}}`.
public struct ErrorBodyDTO: Codable, Sendable, Equatable {
    /// The error's code and message.
    public struct Detail: Codable, Sendable, Equatable {
        /// A stable, machine-readable code such as `invalid_request`.
        public var code: String
        /// A human-readable explanation.
        public var message: String
    }

    /// The error.
    public var error: Detail

    /// Creates an error body.
    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}
