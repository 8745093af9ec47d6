import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// A store that can be told to fail its saves, clears or exclusive sections, as a full disk
/// or a read-only folder would.
final class FaultyTokenStore: TokenStore {
    let inner = InMemoryTokenStore()
    let failSaves = TestMutex(false)
    let failLocking = TestMutex(false)
    /// What a failed lock says: `.io` for a lock file that cannot be created (a read-only
    /// folder), `.lockFailed` for a lock another program held past the timeout.
    let lockFailureKind = TestMutex(TokenStoreError.Kind.io)
    /// When set, clears fail with this kind while loads, saves and the exclusive section work:
    /// `.unavailable` for a database that went down just then.
    let clearFailureKind = TestMutex<TokenStoreError.Kind?>(nil)

    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }

    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        if failSaves.withLock({ $0 }) {
            throw TokenStoreError(kind: .io, path: "/full/disk", reason: "cannot write a new version (No space left on device)")
        }
        try await inner.save(credentials)
    }

    func clear() async throws(TokenStoreError) {
        if let kind = clearFailureKind.withLock({ $0 }) {
            throw TokenStoreError(kind: kind, path: "postgres://db/app/credentials", reason: "no connection to the database")
        }
        if failLocking.withLock({ $0 }) {
            throw TokenStoreError(kind: .io, path: "/read-only", reason: "cannot remove it (Read-only file system)")
        }
        try await inner.clear()
    }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if failLocking.withLock({ $0 }) {
            throw TokenStoreError(kind: lockFailureKind.withLock { $0 }, path: "/read-only/credentials.json.lock",
                                  reason: "cannot open it as the lock file (Read-only file system)")
        }
        return try await inner.withExclusiveAccess(body)
    }
}

@Suite("The session when the store fails: a full disk after a rotation, a read-only folder at sign-out")
struct SessionHardeningTests {
    let fake: FakeAppServer

    init() throws {
        fake = try FakeAppServer(clock: TestClock())
    }

    func makeService(store: any TokenStore) -> RepositoryService { fake.service(store: store) }

    @Test("a save that fails after the server rotated keeps the new tokens in memory; the old refresh token is never presented again")
    func failedSaveKeepsRotatedCredentials() async throws {
        let store = FaultyTokenStore()
        let original = fake.issueCredentials()
        try await store.save(original)
        let service = makeService(store: store)
        fake.expireAllAccessTokens()
        store.failSaves.withLock { $0 = true }

        let error = await #expect(throws: TokenStoreError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .io)
        #expect(fake.refreshRequests == 1)
        #expect(try await store.load() == original)   // the disk still holds the retired token

        // Still failing: the calls work with the rotated tokens held in memory, no new refresh.
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)

        // The disk recovers: the next call saves them.
        store.failSaves.withLock { $0 = false }
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        let saved = try #require(try await store.load())
        #expect(saved.refreshToken != original.refreshToken)
        #expect(fake.refreshRequests == 1)

        // And a later refresh presents the rotated refresh token, not the retired one.
        fake.expireAllAccessTokens()
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 2)
        #expect(try await store.load()?.refreshToken != saved.refreshToken)
    }

    @Test("unsaved rotated credentials are dropped when another program changed the store meanwhile; its session wins")
    func unsavedCredentialsYieldToTheStore() async throws {
        let store = FaultyTokenStore()
        try await store.save(fake.issueCredentials())
        let service = makeService(store: store)
        fake.expireAllAccessTokens()
        store.failSaves.withLock { $0 = true }
        await #expect(throws: TokenStoreError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }

        // Another program signs in (as the same member) and saves a fresh session.
        store.failSaves.withLock { $0 = false }
        let other = fake.issueCredentials()
        try await store.save(other)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(try await store.load() == other)
        let lastToken = fake.requests.last?.value(forHeaderField: "Authorization")
        #expect(lastToken == "Bearer \(other.accessToken.rawValue)")
    }

    @Test("sign-out with a store that cannot be locked or cleared still ends the session on the server, and says the local copy stays")
    func signOutFromReadOnlyStore() async throws {
        let store = FaultyTokenStore()
        try await store.save(fake.issueCredentials())
        let service = makeService(store: store)
        store.failLocking.withLock { $0 = true }

        let result = try await service.signOut()
        #expect(result.wasSignedIn)
        #expect(result.serverConfirmed)
        #expect(!result.removedLocally)
        #expect(result.localError?.description.contains("Read-only file system") == true)
        #expect(fake.state.withLock { $0.signOutRequests } == 1)
    }

    @Test("sign-out while the store's database is down still ends the session on the server when the credentials can be read, and says the local copy stays")
    func signOutWhileDatabaseIsDown() async throws {
        let store = FaultyTokenStore()
        let credentials = fake.issueCredentials()
        try await store.save(credentials)
        let service = makeService(store: store)
        store.failLocking.withLock { $0 = true }
        store.lockFailureKind.withLock { $0 = .unavailable }

        let result = try await service.signOut()
        #expect(result.wasSignedIn)
        #expect(result.serverConfirmed)
        #expect(!result.removedLocally)
        #expect(result.localError?.kind == .unavailable)
        #expect(result.localError?.isTransient == true)
        #expect(fake.state.withLock { $0.signOutRequests } == 1)
        #expect(try await store.load() == credentials)   // the local copy stays until the database is back
    }

    @Test("sign-out while another program holds the lock past the timeout throws, and revokes nothing: that program may be mid-refresh")
    func signOutWithLockTimeout() async throws {
        let store = FaultyTokenStore()
        try await store.save(fake.issueCredentials())
        let service = makeService(store: store)
        store.failLocking.withLock { $0 = true }
        store.lockFailureKind.withLock { $0 = .lockFailed }
        let error = await #expect(throws: TokenStoreError.self) { try await service.signOut() }
        #expect(error?.kind == .lockFailed)
        #expect(fake.state.withLock { $0.signOutRequests } == 0)
    }

    @Test("429 with Retry-After is a transient error that says how long to wait")
    func rateLimited() async throws {
        let transport = TestTransport(always: .json(429, #"{"error":{"code":"rate_limited","message":"too many attempts"}}"#,
                                                    headers: ["Retry-After": "30"]))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            _ = try await AuthAPI.signIn(email: "kim@example.com", password: "wrong-password", server: server)
        }
        #expect(error?.isTransient == true)
        #expect(error?.serverErrorCode == .rateLimited)
        #expect(error?.retryAfter == 30)
        #expect(error?.description.contains("retry after 30 s") == true)
    }
}

@Suite("Encoding the app's values as the contract writes them")
struct ContractEncodingTests {
    @Test("member and author ids encode in lower case, as the server sends them, and decode back")
    func lowerCaseIDs() throws {
        let id = try #require(UUID(uuidString: "6f9619ff-8b86-d011-b42d-00c04fc964ff"))
        let member = Member(id: id, nickname: "kim", email: nil, role: .member, createdAt: Date(timeIntervalSince1970: 1_795_852_800))
        let json = String(decoding: try JSONCoding.makeEncoder().encode(member), as: UTF8.self)
        #expect(json.contains(#""id":"6f9619ff-8b86-d011-b42d-00c04fc964ff""#), "\(json)")
        #expect(!json.contains("email"))
        #expect(try JSONCoding.makeDecoder().decode(Member.self, from: Data(json.utf8)) == member)
        let author = String(decoding: try JSONCoding.makeEncoder().encode(Author(id: id, nickname: "kim")), as: UTF8.self)
        #expect(author.contains(#""id":"6f9619ff-8b86-d011-b42d-00c04fc964ff""#), "\(author)")
    }
}
