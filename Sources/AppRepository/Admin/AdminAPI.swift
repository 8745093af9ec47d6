public import NetworkService

/// What admins may do: `/v1/admin`. Members get 403 `forbidden`.
/// Admins remove reported content with ``PostAPI/delete(id:server:accessToken:)``,
/// ``CommentAPI/delete(id:server:accessToken:)`` and ``AnswerAPI/delete(id:server:accessToken:)``.
public enum AdminAPI {
    /// `GET /v1/admin/reports`: a page of reports, newest first.
    public static func fetchReports(threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                    accessToken: AccessToken) async throws(NetworkError) -> Page<Report> {
        try await server.send(AdminEndpoint.fetchReports(threshold: threshold, pageSize: pageSize), accessToken: accessToken)
    }
}
