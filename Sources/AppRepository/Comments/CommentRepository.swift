import SessionEngine

/// Comments, through a ``RepositoryService``: `service.comments.fetchList(postID: 7)`.
public struct CommentRepository: Sendable {
    let service: RepositoryService

    /// See ``CommentAPI/fetchList(postID:threshold:pageSize:server:accessToken:)``.
    public func fetchList(postID: Int, threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Comment> {
        try await service.request {
            try await CommentAPI.fetchList(postID: postID, threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1)
        }
    }

    /// See ``CommentAPI/create(postID:content:server:accessToken:)``.
    public func create(postID: Int, content: String) async throws -> Comment {
        try await service.request { try await CommentAPI.create(postID: postID, content: content, server: $0, accessToken: $1) }
    }

    /// See ``CommentAPI/delete(id:server:accessToken:)``.
    public func delete(id: Int) async throws {
        try await service.request { try await CommentAPI.delete(id: id, server: $0, accessToken: $1) }
    }
}
