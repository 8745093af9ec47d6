import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Rule 6 of the session rules: a rotation that arrives after a sign-out or sign-in here began
/// is handed to no caller, but it replaces the used credentials in the store, so that whoever
/// takes the store's exclusive section next never presents the used refresh token again.
@Suite("A rotation a sign-out or sign-in overtook replaces the used token in the store")
struct OvertakenRotationTests {
    let clock = TestClock()
    let fake: FakeAppServer

    init() throws {
        fake = try FakeAppServer(clock: clock)
    }

    /// How the race went: process A's call, whose refresh the sign-out or sign-in of A
    /// overtook; process B's call, which took the section between them; and that sign-out's
    /// or sign-in's result.
    struct Race<Overtaking: Sendable> {
        let store: InMemoryTokenStore
        let processA: RepositoryService
        let eventsOfA: AsyncStream<SessionEvent>
        let used: Credentials
        let callOfA: Result<Member, any Error>
        let callOfB: Result<Member, any Error>
        let overtaking: Overtaking
    }

    @Test("another process that takes the section between the overtaken refresh and the waiting sign-out finds the rotated token, not the used one")
    func anotherProcessFindsTheRotatedToken() async throws {
        let race = try await overtakeRotation { try await $0.signOut() }

        #expect(try race.callOfB.get().id.uuidString == FakeAppServer.memberID)
        #expect(fake.refreshRequests == 1, "the used refresh token was presented again")
        let retry = try #require(fake.requests.last { $0.target == "/v1/members/me" })
        let retriedWithTheUsedToken = retry.value(forHeaderField: "Authorization") == "Bearer \(race.used.accessToken.rawValue)"
        #expect(!retriedWithTheUsedToken)
        #expect(throws: SessionError.self) { try race.callOfA.get() }
    }

    @Test("the sign-out that overtook the rotation still ends the session: wasSignedIn, signedOut(.userSignedOut), the store cleared, the rotated tokens revoked")
    func signOutStillEndsTheSession() async throws {
        let race = try await overtakeRotation { try await $0.signOut() }

        #expect(race.overtaking.wasSignedIn)
        #expect(race.overtaking.serverError == nil, "the server was not told with the live tokens")
        #expect(try await race.store.load() == nil)
        #expect(fake.signOutRequests == 1)
        let signOut = try #require(fake.requests.last { $0.target == "/v1/auth/sign-out" })
        let retry = try #require(fake.requests.last { $0.target == "/v1/members/me" })
        let revokedTheRotatedTokens = signOut.value(forHeaderField: "Authorization") == retry.value(forHeaderField: "Authorization")
        #expect(revokedTheRotatedTokens)

        // A sign-in afterwards marks the end of the events A sent.
        _ = try await race.processA.signIn(email: "kim@example.com", password: "password1")
        var events: [SessionEvent] = []
        for await event in race.eventsOfA {
            events.append(event)
            if case .signedIn = event { break }
        }
        #expect(events == [.signedOut(.userSignedOut), .signedIn(accountID: FakeAppServer.memberID)])
    }

    @Test("a sign-in of another account that overtook the rotation ends with that account stored, and the other process went on with the rotated token")
    func signInOfAnotherAccountReplacesTheRotation() async throws {
        let race = try await overtakeRotation { try await $0.signIn(email: "other@example.com", password: "password1") }

        #expect(race.overtaking.id.uuidString == FakeAppServer.otherMemberID)
        #expect(try await race.store.load()?.accountID == FakeAppServer.otherMemberID)
        #expect(try race.callOfB.get().id.uuidString == FakeAppServer.memberID)
        #expect(fake.refreshRequests == 1, "the used refresh token was presented again")
    }

    /// Process A's call waits in a refresh the server holds (inside the store's exclusive
    /// section); process B (another service on the same store) has a call whose token was
    /// refused waiting for the section; then `overtake` (a sign-out or sign-in of A) begins and
    /// waits for the section after B. Then the server answers A's refresh.
    private func overtakeRotation<Overtaking: Sendable>(
        _ overtake: @escaping @Sendable (RepositoryService) async throws -> Overtaking
    ) async throws -> Race<Overtaking> {
        let used = fake.issueCredentials()
        let store = InMemoryTokenStore(credentials: used)
        let processA = fake.service(store: store)
        let processB = fake.service(store: store)
        let eventsOfA = processA.events()
        let gate = Gate()
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(.hang(gate))

        let callOfA = Task { try await processA.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        await gate.waitForArrivals(1)
        let callOfB = Task { try await processB.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        while fake.unauthorizedResponses < 2 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(50))   // B waits for the section
        let overtaking = Task { try await overtake(processA) }
        try await Task.sleep(for: .milliseconds(50))   // A's new generation waits for the section
        await gate.open()

        return Race(store: store, processA: processA, eventsOfA: eventsOfA, used: used,
                    callOfA: await callOfA.result, callOfB: await callOfB.result,
                    overtaking: try await overtaking.value)
    }
}
