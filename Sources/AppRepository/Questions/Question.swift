public import Foundation

/// A question of the day that members answer.
public struct Question: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The question's id.
    public let id: Int
    /// The question's text.
    public let content: String
    /// How many answers it has.
    public let answerCount: Int
    /// Whether the signed-in member has answered it.
    public let isAnswered: Bool
    /// When it was published.
    public let createdAt: Date

    /// Creates a question value.
    public init(id: Int, content: String, answerCount: Int, isAnswered: Bool, createdAt: Date) {
        self.id = id
        self.content = content
        self.answerCount = answerCount
        self.isAnswered = isAnswered
        self.createdAt = createdAt
    }
}
