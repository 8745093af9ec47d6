import AppRepository
import AppSDKTesting
import Foundation
import SessionEngine
import Testing
import TokenStore

/// A store whose exclusive section is unavailable for a while (a database restarting).
private final class UnavailableSectionStore: TokenStore {
    let wrapped: InMemoryTokenStore
    let failing = LockedFlag()

    init(_ wrapped: InMemoryTokenStore) { self.wrapped = wrapped }

    func load() async throws(TokenStoreError) -> Credentials? { try await wrapped.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) { try await wrapped.save(credentials) }
    func clear() async throws(TokenStoreError) { try await wrapped.clear() }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if failing.value { throw TokenStoreError(kind: .unavailable, path: "postgres://db", reason: "no connection to the database") }
        return try await wrapped.withExclusiveAccess(body)
    }
}

private final class LockedFlag: Sendable {
    private let state = TestMutex(false)
    var value: Bool { state.withLock { $0 } }
    func set(_ value: Bool) { state.withLock { $0 = value } }
}

@Suite("A store that is unavailable for a moment never ends the session")
struct TransientStoreErrorTests {
    @Test("refreshing ahead while the store's section is unavailable uses the still-valid token, and refreshes once it is back")
    func refreshAheadFallsBackToValidToken() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        let store = UnavailableSectionStore(InMemoryTokenStore(credentials: fake.issueCredentials(expiresIn: 0.5)))
        let service = fake.service(store: store)
        store.failing.set(true)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 0)
        #expect(fake.unauthorizedResponses == 0)
        store.failing.set(false)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)
    }

    @Test("once the token has expired, the store's transient error reaches the caller and the credentials stay")
    func expiredTokenReportsTheStoreError() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        let credentials = fake.issueCredentials(expiresIn: 0.5)
        let store = UnavailableSectionStore(InMemoryTokenStore(credentials: credentials))
        let service = fake.service(store: store)
        store.failing.set(true)
        clock.advance(by: 1)
        let error = await #expect(throws: TokenStoreError.self) { _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.isTransient == true)
        #expect(try await store.load() == credentials)
    }
}
