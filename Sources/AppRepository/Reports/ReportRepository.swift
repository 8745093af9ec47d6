import SessionEngine

/// Reports, through a ``RepositoryService``: `service.reports.create(targetType: .post, targetID: 7, reason: "spam")`.
public struct ReportRepository: Sendable {
    let service: RepositoryService

    /// See ``ReportAPI/create(targetType:targetID:reason:server:accessToken:)``.
    public func create(targetType: ReportTargetType, targetID: Int, reason: String) async throws -> Report {
        try await service.request {
            try await ReportAPI.create(targetType: targetType, targetID: targetID, reason: reason, server: $0, accessToken: $1)
        }
    }
}
