import SessionEngine

/// What admins may do, through a ``RepositoryService``: `service.admin.fetchReports()`.
/// Remove reported content with `service.posts.delete(id:)`, `service.comments.delete(id:)`
/// and `service.answers.delete(id:)`.
public struct AdminRepository: Sendable {
    let service: RepositoryService

    /// See ``AdminAPI/fetchReports(threshold:pageSize:server:accessToken:)``.
    public func fetchReports(threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Report> {
        try await service.request { try await AdminAPI.fetchReports(threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1) }
    }
}
