import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Rule 3 of the session rules: a call is never retried with another account's token.
@Suite("A call whose refresh brings another account's token is not retried")
struct JoinedRefreshAccountTests {
    let clock = TestClock()
    let fake: FakeAppServer

    init() throws {
        fake = try FakeAppServer(clock: clock)
    }

    @Test("a call made as one member that joins the refresh of another member's session (signed in by another process meanwhile) fails with sessionChanged, not retried as that member")
    func joinedRefreshOfAnotherAccount() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = fake.service(store: store)
        let refreshGate = Gate()
        let firstCallMayGoOn = Gate()
        let attempts = LockedValue(0)
        fake.setRefreshBehaviour(.hang(refreshGate))

        // A call as the first member has its token and is held before it reaches the server.
        let first = Task {
            try await service.request { server, token in
                attempts.withLock { $0 += 1 }
                await firstCallMayGoOn.wait()
                return try await MemberAPI.fetchMe(server: server, accessToken: token)
            }
        }
        await firstCallMayGoOn.waitForArrivals(1)
        // Another process signs in as the other member; that member's call is refused and
        // starts a refresh, which the server holds.
        try await store.save(fake.issueCredentials(memberID: FakeAppServer.otherMemberID))
        fake.expireAllAccessTokens()
        let second = Task { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        await refreshGate.waitForArrivals(1)
        // The first call's token is refused too: it joins the refresh in flight.
        await firstCallMayGoOn.open()
        while fake.unauthorizedResponses < 2 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(50))
        await refreshGate.open()

        #expect(try await second.value.id.uuidString == FakeAppServer.otherMemberID)
        let error = await #expect(throws: SessionError.self) { try await first.value }
        #expect(error?.kind == .sessionChanged)
        #expect(attempts.withLock { $0 } == 1, "the call was retried with the other member's token")
        #expect(fake.refreshRequests == 1)
        #expect(try await store.load()?.accountID == FakeAppServer.otherMemberID)
    }
}
