public import NetworkService

/// The signed-in member's account: `/v1/members/me`.
public enum MemberAPI {
    /// `GET /v1/members/me`.
    public static func fetchMe(server: Server, accessToken: AccessToken) async throws(NetworkError) -> Member {
        try await server.send(MemberEndpoint.fetchMe, accessToken: accessToken)
    }

    /// `PATCH /v1/members/me`: changes the nickname (1–30 characters).
    public static func updateMe(nickname: String, server: Server, accessToken: AccessToken) async throws(NetworkError) -> Member {
        try await server.send(MemberEndpoint.updateMe(nickname: nickname), accessToken: accessToken)
    }

    /// `DELETE /v1/members/me`: deletes the account and all its sessions.
    public static func deleteMe(server: Server, accessToken: AccessToken) async throws(NetworkError) {
        try await server.send(MemberEndpoint.deleteMe, accessToken: accessToken)
    }
}
