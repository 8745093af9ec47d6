public import NetworkService

/// Comments on posts.
public enum CommentAPI {
    /// `GET /v1/posts/{postID}/comments`: a page of a post's comments, newest first.
    public static func fetchList(postID: Int, threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                 accessToken: AccessToken) async throws(NetworkError) -> Page<Comment> {
        try await server.send(CommentEndpoint.fetchList(postID: postID, threshold: threshold, pageSize: pageSize),
                              accessToken: accessToken)
    }

    /// `POST /v1/posts/{postID}/comments`.
    public static func create(postID: Int, content: String, server: Server,
                              accessToken: AccessToken) async throws(NetworkError) -> Comment {
        try await server.send(CommentEndpoint.create(postID: postID, content: content), accessToken: accessToken)
    }

    /// `DELETE /v1/comments/{id}`: 403 unless the member wrote it or is an admin.
    public static func delete(id: Int, server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(CommentEndpoint.delete(id: id), accessToken: accessToken)
    }
}
