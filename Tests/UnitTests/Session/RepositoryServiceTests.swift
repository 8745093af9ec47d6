import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("RepositoryService keeps the session alive")
struct RepositoryServiceTests {
    let clock = TestClock()
    let fake: FakeAppServer

    init() throws {
        fake = try FakeAppServer(clock: clock)
    }

    func makeService(store: any TokenStore, limit: RefreshLimit = RefreshLimit()) -> RepositoryService {
        let clock = clock
        return RepositoryService(
            server: fake.server, tokenStore: store,
            configuration: .init(refreshLimit: limit, now: { clock.now }, refresher: .appAPI, revoker: .appAPI)
        )
    }

    @Test("100 concurrent calls with an expired access token make exactly one refresh request, and all succeed")
    func concurrentExpiredCalls() async throws {
        let credentials = fake.issueCredentials(expiresIn: 900)
        let store = InMemoryTokenStore(credentials: credentials)
        let service = makeService(store: store)
        fake.expireAllAccessTokens()
        clock.advance(by: 1000)

        let members = try await withThrowingTaskGroup(of: Member.self) { group in
            for _ in 0..<100 { group.addTask { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(members.count == 100)
        #expect(fake.refreshRequests == 1)
        #expect(try await store.load()?.refreshToken != credentials.refreshToken)
    }

    @Test("100 concurrent calls whose token the server revoked early (401) make exactly one refresh request")
    func concurrentUnauthorizedCalls() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials(expiresIn: 900))
        let service = makeService(store: store)
        fake.expireAllAccessTokens()

        let results = try await withThrowingTaskGroup(of: Member.self) { group in
            for _ in 0..<100 { group.addTask { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(fake.refreshRequests == 1)
    }

    @Test("a token within the refresh margin is refreshed before the call, with no 401 round trip")
    func proactiveRefresh() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials(expiresIn: 0.5))
        let service = makeService(store: store)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)
        #expect(fake.unauthorizedResponses == 0)
        #expect(fake.apiRequests == ["GET /v1/members/me"])
    }

    @Test("a token outside the refresh margin is used as it is")
    func noNeedlessRefresh() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials(expiresIn: 900))
        let service = makeService(store: store)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        clock.advance(by: 800)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 0)
    }

    @Test("when refreshing ahead fails but the token has not expired yet, the call goes ahead with it")
    func proactiveRefreshFailureUsesValidToken() async throws {
        let credentials = fake.issueCredentials(expiresIn: 0.5)
        let store = InMemoryTokenStore(credentials: credentials)
        let service = makeService(store: store)
        fake.setRefreshBehaviour(.serverError)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)
        #expect(try await store.load() == credentials)
    }

    @Test("a session another program ended while this call waited ends here too, with one signedOut event")
    func sessionEndedElsewhere() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        let events = service.events()
        fake.expireAllAccessTokens()
        let error = await #expect(throws: SessionError.self) {
            try await service.request { server, token in
                do {
                    return try await MemberAPI.fetchMe(server: server, accessToken: token)
                } catch {
                    try await store.clear()          // another program signs out meanwhile
                    throw error
                }
            }
        }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .endedElsewhere)
        #expect(fake.refreshRequests == 0)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.endedElsewhere))
    }

    @Test("a 401 after a successful refresh is returned to the caller, after one refresh only")
    func secondUnauthorizedGoesToCaller() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        fake.setAlwaysUnauthorized(true)
        let error = await #expect(throws: NetworkError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.statusCode == 401)
        #expect(fake.refreshRequests == 1)
        #expect(fake.apiRequests.count == 2)
    }

    @Test("a 403 never triggers a refresh")
    func forbiddenDoesNotRefresh() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        let error = await #expect(throws: NetworkError.self) { try await service.request { try await PostAPI.fetch(id: 403, server: $0, accessToken: $1) } }
        #expect(error?.statusCode == 403)
        #expect(fake.refreshRequests == 0)
        #expect(fake.apiRequests.count == 1)
    }

    @Test("a refresh answered 401 invalid_refresh_token clears the store, sends one signedOut event and ends the session")
    func rejectedRefreshEndsSession() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        let events = service.events()
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(.reject(code: "invalid_refresh_token"))

        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .refreshTokenRejected(.invalidRefreshToken))
        #expect(try await store.load() == nil)
        let received = await collect(events, count: 1)
        #expect(received == [.signedOut(.refreshTokenRejected(.invalidRefreshToken))])

        let next = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(next?.kind == .notSignedIn)
    }

    @Test("refresh_token_reused ends the session too")
    func reusedRefreshEndsSession() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(.reject(code: "refresh_token_reused"))
        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.reason == .refreshTokenRejected(.refreshTokenReused))
        #expect(try await store.load() == nil)
    }

    @Test("a refresh that times out, drops, answers 500, HTML or an empty token keeps the credentials and is transient; the next call works",
          arguments: [FakeAppServer.RefreshBehaviour.timeout, .dropConnection, .serverError, .html,
                      .emptyAccessToken, .emptyRefreshToken])
    func transientRefreshFailure(behaviour: FakeAppServer.RefreshBehaviour) async throws {
        let credentials = fake.issueCredentials()
        let store = InMemoryTokenStore(credentials: credentials)
        let service = makeService(store: store)
        let events = service.events()
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(behaviour)

        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .refreshFailed)
        #expect(error?.isTransient == true)
        #expect(try await store.load() == credentials)

        fake.setRefreshBehaviour(.succeed)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(try await store.load()?.refreshToken != credentials.refreshToken)
        let received = await collect(events, count: 1)
        #expect(received == [.refreshed(accountID: FakeAppServer.memberID)])
    }

    @Test("a sign-out while a refresh is in flight leaves the store empty and revokes the tokens that refresh got, not the ones the server retired")
    func signOutRevokesTheOvertakenRotation() async throws {
        let (store, service, gate, call) = try await startCallWithHungRefresh()
        let signOut = Task { try await service.signOut() }
        try await Task.sleep(for: .milliseconds(50))
        await gate.open()

        let result = try await signOut.value
        await #expect(throws: SessionError.self) { try await call.value }
        #expect(result.wasSignedIn)
        #expect(result.serverError == nil, "the server was told with the live tokens: \(String(describing: result.serverError))")
        #expect(fake.signOutRequests == 1)
        #expect(fake.refreshRequests == 1, "the retired refresh token was presented again")
        #expect(try await store.load() == nil)
    }

    @Test("a caller cancelled while it waits for a shared refresh stops waiting; the refresh goes on for the others")
    func cancelledWaiter() async throws {
        let (_, service, gate, first) = try await startCallWithHungRefresh()
        let second = Task { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        try await Task.sleep(for: .milliseconds(20))
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }

        await gate.open()
        _ = try await first.value
        #expect(fake.refreshRequests == 1)
    }

    @Test("a refresh that finishes after another member signed in writes nothing")
    func signInDuringRefresh() async throws {
        let (store, service, gate, call) = try await startCallWithHungRefresh()
        let signIn = Task { try await service.signIn(email: "other@example.com", password: "password1") }
        try await Task.sleep(for: .milliseconds(50))
        await gate.open()

        let member = try await signIn.value
        await #expect(throws: SessionError.self) { try await call.value }
        #expect(try await store.load()?.accountID == member.id.uuidString)
        #expect(member.id.uuidString == FakeAppServer.otherMemberID)
    }

    @Test("when another writer replaced the credentials after the failure, no refresh is sent and the call retries with the stored token")
    func anotherWriterAlreadyRefreshed() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        fake.expireAllAccessTokens()
        let replaced = TestMutex(false)
        let replacement = fake.issueCredentials()

        let member = try await service.request { server, token in
            do {
                return try await MemberAPI.fetchMe(server: server, accessToken: token)
            } catch {
                // Another process refreshes between this failure and our refresh.
                if !replaced.withLock({ $0 }) {
                    replaced.withLock { $0 = true }
                    try await store.save(replacement)
                }
                throw error
            }
        }
        #expect(member.id.uuidString == FakeAppServer.memberID)
        #expect(fake.refreshRequests == 0)
        let lastToken = fake.requests.last?.value(forHeaderField: "Authorization")
        #expect(lastToken == "Bearer \(replacement.accessToken.rawValue)")
    }

    @Test("a server that always answers 401 is stopped by the refresh limit with an error")
    func refreshLimitStopsLoops() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store, limit: RefreshLimit(maximumRefreshes: 3, interval: 30))
        fake.setAlwaysUnauthorized(true)
        for _ in 0..<3 {
            let error = await #expect(throws: NetworkError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(error?.statusCode == 401)
        }
        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .refreshLimitExceeded)
        #expect(fake.refreshRequests == 3)

        clock.advance(by: 31)
        await #expect(throws: NetworkError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(fake.refreshRequests == 4)
    }

    @Test("a call without stored credentials says so")
    func notSignedIn() async throws {
        let service = makeService(store: InMemoryTokenStore())
        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .notSignedIn)
        #expect(fake.apiRequests.isEmpty)
    }

    /// A signed-in service whose access token the server has expired, and a call that is
    /// now waiting in a refresh the server holds until `gate` opens.
    private func startCallWithHungRefresh() async throws
        -> (InMemoryTokenStore, RepositoryService, Gate, Task<Member, any Error>) {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let service = makeService(store: store)
        let gate = Gate()
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(.hang(gate))
        let call = Task { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        await gate.waitForArrivals(1)
        return (store, service, gate, call)
    }

    private func collect(_ stream: AsyncStream<SessionEvent>, count: Int) async -> [SessionEvent] {
        var events: [SessionEvent] = []
        for await event in stream {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }
}
