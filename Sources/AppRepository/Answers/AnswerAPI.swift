public import NetworkService

/// Answers to questions.
public enum AnswerAPI {
    /// `POST /v1/questions/{questionID}/answers`.
    public static func create(questionID: Int, content: String, server: Server,
                              accessToken: AccessToken) async throws(NetworkError) -> Answer {
        try await server.send(AnswerEndpoint.create(questionID: questionID, content: content), accessToken: accessToken)
    }

    /// `GET /v1/questions/{questionID}/answers`: a page of a question's answers.
    public static func fetchList(questionID: Int, threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                 accessToken: AccessToken) async throws(NetworkError) -> Page<Answer> {
        try await server.send(AnswerEndpoint.fetchList(questionID: questionID, threshold: threshold, pageSize: pageSize),
                              accessToken: accessToken)
    }

    /// `GET /v1/answers/mine`: a page of the signed-in member's answers.
    public static func fetchListOfMine(threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                       accessToken: AccessToken) async throws(NetworkError) -> Page<Answer> {
        try await server.send(AnswerEndpoint.fetchListOfMine(threshold: threshold, pageSize: pageSize), accessToken: accessToken)
    }

    /// `DELETE /v1/answers/{id}`: 403 unless the member wrote it or is an admin.
    public static func delete(id: Int, server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(AnswerEndpoint.delete(id: id), accessToken: accessToken)
    }
}
