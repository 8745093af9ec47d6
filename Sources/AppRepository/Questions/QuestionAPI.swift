public import NetworkService

/// Questions of the day: `/v1/questions`.
public enum QuestionAPI {
    /// `GET /v1/questions/today`.
    public static func fetchToday(server: Server, accessToken: AccessToken) async throws(NetworkError) -> Question {
        try await server.send(QuestionEndpoint.fetchToday, accessToken: accessToken)
    }

    /// `GET /v1/questions`: a page of questions, newest first.
    public static func fetchList(threshold: Int? = nil, pageSize: Int? = nil, server: Server,
                                 accessToken: AccessToken) async throws(NetworkError) -> Page<Question> {
        try await server.send(QuestionEndpoint.fetchList(threshold: threshold, pageSize: pageSize), accessToken: accessToken)
    }
}
