public import NetworkService

/// Reporting content: `/v1/reports`.
public enum ReportAPI {
    /// `POST /v1/reports`: 404 when the target does not exist.
    public static func create(targetType: ReportTargetType, targetID: Int, reason: String, server: Server,
                              accessToken: AccessToken) async throws(NetworkError) -> Report {
        try await server.send(ReportEndpoint.create(targetType: targetType, targetID: targetID, reason: reason),
                              accessToken: accessToken)
    }
}
