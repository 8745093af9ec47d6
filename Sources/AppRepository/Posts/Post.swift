public import Foundation

/// A post on the board.
public struct Post: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The post's id.
    public let id: Int
    /// The post's text.
    public let content: String
    /// Whether the author chose to stay anonymous.
    public let isAnonymous: Bool
    /// Who wrote it; `nil` for an anonymous post.
    public let author: Author?
    /// Whether the signed-in member wrote it.
    public let isMine: Bool
    /// How many members like it.
    public let likeCount: Int
    /// How many comments it has.
    public let commentCount: Int
    /// Whether the signed-in member likes it.
    public let isLiked: Bool
    /// When it was written.
    public let createdAt: Date

    /// Creates a post value.
    public init(id: Int, content: String, isAnonymous: Bool, author: Author?, isMine: Bool,
                likeCount: Int, commentCount: Int, isLiked: Bool, createdAt: Date) {
        self.id = id
        self.content = content
        self.isAnonymous = isAnonymous
        self.author = author
        self.isMine = isMine
        self.likeCount = likeCount
        self.commentCount = commentCount
        self.isLiked = isLiked
        self.createdAt = createdAt
    }
}

/// A post's likes after a like was toggled.
public struct LikeState: Codable, Sendable, Equatable, Hashable {
    /// How many members like the post now.
    public let likeCount: Int
    /// Whether the signed-in member likes it now.
    public let isLiked: Bool

    /// Creates a like state.
    public init(likeCount: Int, isLiked: Bool) {
        self.likeCount = likeCount
        self.isLiked = isLiked
    }
}
