public import AppRepository
public import ArgumentParser
public import SessionEngine

/// The kinds of content that can be reported and removed: `post`, `comment`, `answer`.
public enum ContentKind: String, CaseIterable, Sendable, Codable, ExpressibleByArgument {
    case post, comment, answer

    /// The SDK's name for it.
    public var targetType: ReportTargetType {
        switch self {
        case .post: .post
        case .comment: .comment
        case .answer: .answer
        }
    }

    /// Deletes the item through the SDK (`DELETE /v1/posts|comments|answers/{id}`): the
    /// author may, and an admin may delete anyone's.
    public func delete(id: Int, with service: RepositoryService) async throws {
        switch self {
        case .post: try await service.request { try await PostAPI.delete(id: id, server: $0, accessToken: $1) }
        case .comment: try await service.request { try await CommentAPI.delete(id: id, server: $0, accessToken: $1) }
        case .answer: try await service.request { try await AnswerAPI.delete(id: id, server: $0, accessToken: $1) }
        }
    }
}

/// What a delete prints with `--json`: `{"deleted": {"id": 7, "type": "post"}}`.
public struct Deleted: Encodable, Sendable {
    public struct Item: Encodable, Sendable {
        public let type: ContentKind
        public let id: Int
    }

    public let deleted: Item

    public init(_ type: ContentKind, id: Int) {
        deleted = Item(type: type, id: id)
    }

    /// `deleted post #7`.
    public var humanText: String { "deleted \(deleted.type.rawValue) #\(deleted.id)" }
}
