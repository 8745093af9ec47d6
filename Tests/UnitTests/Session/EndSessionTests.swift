import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("Ending a session for a reason decided outside the engine")
struct EndSessionTests {
    /// A refresher that must never be called: ending a session talks to no server.
    let configuration = SessionService.Configuration(refresher: TokenRefresher { _, _ in
        Issue.record("endSession called the server")
        throw CancellationError()
    })

    func credentials(of account: String) -> Credentials {
        Credentials(accessToken: AccessToken("access-\(account)"), refreshToken: "refresh-\(account)",
                    accessTokenExpiresAt: nil, accountID: account)
    }

    func service(holding stored: Credentials) throws -> (SessionService, InMemoryTokenStore) {
        let store = InMemoryTokenStore(credentials: stored)
        let server = try Server(baseURL: "http://127.0.0.1:9")
        return (SessionService(server: server, tokenStore: store, configuration: configuration), store)
    }

    @Test("ending kim's session clears kim's credentials and sends signedOut with the reason")
    func endsTheNamedAccount() async throws {
        let (service, store) = try service(holding: credentials(of: "kim"))
        let events = service.events()

        try await service.endSession(reason: .accountDeleted, ifStoredAccountIs: "kim")

        #expect(try await store.load() == nil)
        #expect(try await service.isSignedIn() == false)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.accountDeleted))
    }

    @Test("ending kim's session keeps lee's, whom another program signed in meanwhile, and still says kim's ended")
    func keepsAnotherAccount() async throws {
        let (service, store) = try service(holding: credentials(of: "lee"))
        let events = service.events()

        try await service.endSession(reason: .accountDeleted, ifStoredAccountIs: "kim")

        #expect(try await store.load() == credentials(of: "lee"))
        #expect(try await service.signedInAccountID() == "lee")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.accountDeleted))
    }
}
