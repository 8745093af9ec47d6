import SessionEngine

/// Posts, through a ``RepositoryService``: `service.posts.fetchList(pageSize: 20)`.
public struct PostRepository: Sendable {
    let service: RepositoryService

    /// See ``PostAPI/fetchList(threshold:pageSize:server:accessToken:)``.
    public func fetchList(threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Post> {
        try await service.request { try await PostAPI.fetchList(threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1) }
    }

    /// See ``PostAPI/create(content:isAnonymous:server:accessToken:)``.
    public func create(content: String, isAnonymous: Bool = false) async throws -> Post {
        try await service.request { try await PostAPI.create(content: content, isAnonymous: isAnonymous, server: $0, accessToken: $1) }
    }

    /// See ``PostAPI/fetch(id:server:accessToken:)``.
    public func fetch(id: Int) async throws -> Post {
        try await service.request { try await PostAPI.fetch(id: id, server: $0, accessToken: $1) }
    }

    /// See ``PostAPI/delete(id:server:accessToken:)``.
    public func delete(id: Int) async throws {
        try await service.request { try await PostAPI.delete(id: id, server: $0, accessToken: $1) }
    }

    /// See ``PostAPI/toggleLike(id:server:accessToken:)``.
    public func toggleLike(id: Int) async throws -> LikeState {
        try await service.request { try await PostAPI.toggleLike(id: id, server: $0, accessToken: $1) }
    }
}
