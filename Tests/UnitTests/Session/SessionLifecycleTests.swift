import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("Signing in and out")
struct SessionLifecycleTests {
    let clock = TestClock()
    let fake: FakeAppServer

    init() throws {
        fake = try FakeAppServer(clock: clock)
    }

    func makeService(store: any TokenStore) -> RepositoryService {
        let clock = clock
        return RepositoryService(server: fake.server, tokenStore: store, configuration: .init(now: { clock.now }, refresher: .appAPI, revoker: .appAPI))
    }

    @Test("signing in saves credentials that expire by the server's expiresIn, and sends signedIn")
    func signInSavesCredentials() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        let events = service.events()
        let member = try await service.signIn(email: "kim@example.com", password: "password1")

        let stored = try #require(try await store.load())
        #expect(stored.accountID == member.id.uuidString)
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(900))
        #expect(try await service.isSignedIn())
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn(accountID: member.id.uuidString))
    }

    @Test("signing out clears the store, tells the server, and sends signedOut")
    func signOut() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await service.signInAnonymously()
        let events = service.events()
        let result = try await service.signOut()
        #expect(result.serverConfirmed)
        #expect(try await store.load() == nil)
        #expect(fake.state.withLock { $0.signOutRequests } == 1)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.userSignedOut))
    }

    @Test("signing out with an expired access token refreshes once to tell the server")
    func signOutWithExpiredToken() async throws {
        let store = InMemoryTokenStore()
        let service = makeService(store: store)
        try await service.signIn(email: "kim@example.com", password: "password1")
        fake.expireAllAccessTokens()
        let result = try await service.signOut()
        #expect(result.serverConfirmed)
        #expect(fake.refreshRequests == 1)
        #expect(try await store.load() == nil)
    }

    @Test("signing out while the server cannot be reached still signs out here")
    func signOutOffline() async throws {
        let store = InMemoryTokenStore(credentials: fake.issueCredentials())
        let offline = try Server(baseURL: "https://api.example.com", transport: TestTransport { _ in throw TransportError(.cannotConnect) })
        let service = RepositoryService(server: offline, tokenStore: store)
        let result = try await service.signOut()
        #expect(result.wasSignedIn)
        #expect(!result.serverConfirmed)
        #expect((result.serverError as? NetworkError)?.isTransient == true)
        #expect(try await store.load() == nil)
    }

    @Test("a wrong password leaves the stored session as it was")
    func failedSignInKeepsSession() async throws {
        let credentials = fake.issueCredentials()
        let store = InMemoryTokenStore(credentials: credentials)
        let rejecting = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .json(
            401, #"{"error":{"code":"invalid_credentials","message":"wrong email or password"}}"#)))
        let service = RepositoryService(server: rejecting, tokenStore: store)
        let error = await #expect(throws: NetworkError.self) { try await service.signIn(email: "kim@example.com", password: "nope") }
        #expect(error?.serverErrorCode == .invalidCredentials)
        #expect(try await store.load() == credentials)
    }

    @Test("two services live side by side with their own stores and sessions")
    func twoServices() async throws {
        let first = makeService(store: InMemoryTokenStore())
        let second = makeService(store: InMemoryTokenStore())
        try await first.signIn(email: "kim@example.com", password: "password1")
        try await second.signIn(email: "other@example.com", password: "password1")
        #expect(try await first.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }.id.uuidString == FakeAppServer.memberID)
        #expect(try await second.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }.id.uuidString == FakeAppServer.otherMemberID)
        try await first.signOut()
        #expect(try await second.isSignedIn())
    }

    @Test("a custom refresher and rule keep a session alive against a server that refreshes differently")
    func customRefresher() async throws {
        let legacy = try Server(baseURL: "https://legacy.example.com", transport: TestTransport { request in
            switch request.target {
            case "/v1/members/me" where request.value(forHeaderField: "Authorization") == "Bearer renewed":
                return .json(200, #"{"id":"\#(FakeAppServer.memberID)","nickname":"kim","email":null,"role":"member","createdAt":"2026-11-22T10:00:00Z"}"#)
            case "/v1/members/me":
                return .json(401, #"{"error":{"code":"token_expired","message":"expired"}}"#)
            default:
                return .status(404)
            }
        })
        let refresher = TokenRefresher { credentials, _ in
            #expect(credentials.refreshToken == "legacy-refresh")
            return Tokens(accessToken: AccessToken("renewed"), refreshToken: "legacy-refresh-2", expiresIn: 60, expiresAt: Date())
        }
        let store = InMemoryTokenStore(credentials: Credentials(accessToken: AccessToken("old"), refreshToken: "legacy-refresh",
                                                                accessTokenExpiresAt: nil, accountID: FakeAppServer.memberID))
        let service = RepositoryService(server: legacy, tokenStore: store,
                                        configuration: .init(refresher: refresher, refreshFailureRule: .rejecting(status: 400, codes: nil)))
        let member = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(member.isAnonymous)
        #expect(try await store.load()?.refreshToken == "legacy-refresh-2")
    }
}
