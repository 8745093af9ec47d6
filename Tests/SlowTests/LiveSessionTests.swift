import AppRepository
import Foundation
import NetworkService
import Testing
import TokenStore

@Suite("Live server: the session", .liveServer)
struct LiveSessionTests {
    @Test("an anonymous member signs in, sees themself, and signs out on the server")
    func anonymousSession() async throws {
        let service = RepositoryService(server: try SlowTestEnvironment.server(), tokenStore: InMemoryTokenStore())
        let member = try await service.signInAnonymously()
        #expect(member.isAnonymous)
        #expect(try await service.currentMember() == member)
        let result = try await service.signOut()
        #expect(result.serverConfirmed)
        #expect(try await service.isSignedIn() == false)
    }
}
