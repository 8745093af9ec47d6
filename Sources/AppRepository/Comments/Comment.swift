public import Foundation

/// A comment on a post.
public struct Comment: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The comment's id.
    public let id: Int
    /// The post it belongs to.
    public let postId: Int
    /// The comment's text.
    public let content: String
    /// Who wrote it.
    public let author: Author
    /// Whether the signed-in member wrote it.
    public let isMine: Bool
    /// When it was written.
    public let createdAt: Date

    /// Creates a comment value.
    public init(id: Int, postId: Int, content: String, author: Author, isMine: Bool, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.content = content
        self.author = author
        self.isMine = isMine
        self.createdAt = createdAt
    }
}
