import SessionEngine

/// The signed-in member's account, through a ``RepositoryService``: `service.members.fetchMe()`.
public struct MemberRepository: Sendable {
    let service: RepositoryService

    /// See ``MemberAPI/fetchMe(server:accessToken:)``.
    public func fetchMe() async throws -> Member {
        try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
    }

    /// See ``MemberAPI/updateMe(nickname:server:accessToken:)``.
    public func updateMe(nickname: String) async throws -> Member {
        try await service.request { try await MemberAPI.updateMe(nickname: nickname, server: $0, accessToken: $1) }
    }
}
