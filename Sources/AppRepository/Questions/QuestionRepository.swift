import SessionEngine

/// Questions, through a ``RepositoryService``: `service.questions.fetchToday()`.
public struct QuestionRepository: Sendable {
    let service: RepositoryService

    /// See ``QuestionAPI/fetchToday(server:accessToken:)``.
    public func fetchToday() async throws -> Question {
        try await service.request { try await QuestionAPI.fetchToday(server: $0, accessToken: $1) }
    }

    /// See ``QuestionAPI/fetchList(threshold:pageSize:server:accessToken:)``.
    public func fetchList(threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Question> {
        try await service.request { try await QuestionAPI.fetchList(threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1) }
    }
}
