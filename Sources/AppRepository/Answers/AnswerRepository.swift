import SessionEngine

/// Answers, through a ``RepositoryService`` that supplies the server and token:
/// `service.answers.fetchListOfMine(pageSize: 20)`.
public struct AnswerRepository: Sendable {
    let service: RepositoryService

    /// See ``AnswerAPI/create(questionID:content:server:accessToken:)``.
    public func create(questionID: Int, content: String) async throws -> Answer {
        try await service.request { try await AnswerAPI.create(questionID: questionID, content: content, server: $0, accessToken: $1) }
    }

    /// See ``AnswerAPI/fetchList(questionID:threshold:pageSize:server:accessToken:)``.
    public func fetchList(questionID: Int, threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Answer> {
        try await service.request {
            try await AnswerAPI.fetchList(questionID: questionID, threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1)
        }
    }

    /// See ``AnswerAPI/fetchListOfMine(threshold:pageSize:server:accessToken:)``.
    public func fetchListOfMine(threshold: Int? = nil, pageSize: Int? = nil) async throws -> Page<Answer> {
        try await service.request {
            try await AnswerAPI.fetchListOfMine(threshold: threshold, pageSize: pageSize, server: $0, accessToken: $1)
        }
    }

    /// See ``AnswerAPI/delete(id:server:accessToken:)``.
    public func delete(id: Int) async throws {
        try await service.request { try await AnswerAPI.delete(id: id, server: $0, accessToken: $1) }
    }
}
