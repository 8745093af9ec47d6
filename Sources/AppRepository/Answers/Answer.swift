public import Foundation

/// A member's answer to a question.
public struct Answer: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The answer's id.
    public let id: Int
    /// The question it answers.
    public let questionId: Int
    /// The answer's text.
    public let content: String
    /// Who wrote it.
    public let author: Author
    /// Whether the signed-in member wrote it.
    public let isMine: Bool
    /// When it was written.
    public let createdAt: Date

    /// Creates an answer value.
    public init(id: Int, questionId: Int, content: String, author: Author, isMine: Bool, createdAt: Date) {
        self.id = id
        self.questionId = questionId
        self.content = content
        self.author = author
        self.isMine = isMine
        self.createdAt = createdAt
    }
}
