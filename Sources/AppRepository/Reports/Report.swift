public import Foundation

/// A member's report of content that breaks the rules.
public struct Report: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The report's id.
    public let id: Int
    /// What kind of content is reported.
    public let targetType: ReportTargetType
    /// The id of the reported post, comment or answer.
    public let targetId: Int
    /// Why it was reported.
    public let reason: String
    /// Who reported it.
    public let author: Author
    /// Whether the signed-in member reported it.
    public let isMine: Bool
    /// When it was reported.
    public let createdAt: Date

    /// Creates a report value.
    public init(id: Int, targetType: ReportTargetType, targetId: Int, reason: String, author: Author,
                isMine: Bool, createdAt: Date) {
        self.id = id
        self.targetType = targetType
        self.targetId = targetId
        self.reason = reason
        self.author = author
        self.isMine = isMine
        self.createdAt = createdAt
    }
}

/// The kinds of content that can be reported.
public enum ReportTargetType: String, Codable, Sendable, Hashable, CaseIterable {
    /// A post.
    case post
    /// A comment.
    case comment
    /// An answer.
    case answer
}
