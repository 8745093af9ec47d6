public import NetworkService

/// The board's posts: `/v1/posts`.
public enum PostAPI {
    /// `GET /v1/posts`: a page of posts, newest first.
    public static func fetchList(threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                 accessToken: AccessToken) async throws(NetworkError) -> Page<Post> {
        try await server.send(PostEndpoint.fetchList(threshold: threshold, pageSize: pageSize), accessToken: accessToken)
    }

    /// `POST /v1/posts`: an anonymous post does not show its author to others.
    public static func create(content: String, isAnonymous: Bool = false, server: Server,
                              accessToken: AccessToken) async throws(NetworkError) -> Post {
        try await server.send(PostEndpoint.create(content: content, isAnonymous: isAnonymous), accessToken: accessToken)
    }

    /// `GET /v1/posts/{id}`.
    public static func fetch(id: Int, server: Server, accessToken: AccessToken) async throws(NetworkError) -> Post {
        try await server.send(PostEndpoint.fetch(id: id), accessToken: accessToken)
    }

    /// `DELETE /v1/posts/{id}`: 403 unless the member wrote it or is an admin.
    public static func delete(id: Int, server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(PostEndpoint.delete(id: id), accessToken: accessToken)
    }

    /// `POST /v1/posts/{id}/like`: likes the post, or takes the like back.
    public static func toggleLike(id: Int, server: Server, accessToken: AccessToken) async throws(NetworkError) -> LikeState {
        try await server.send(PostEndpoint.toggleLike(id: id), accessToken: accessToken)
    }
}
