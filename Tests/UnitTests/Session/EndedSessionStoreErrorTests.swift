import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("A session the server ended while the store could not remove its credentials")
struct EndedSessionStoreErrorTests {
    let fake: FakeAppServer
    let store = FaultyTokenStore()
    let dead: Credentials
    let service: RepositoryService
    let events: AsyncStream<SessionEvent>

    /// A signed-in service whose access token has expired, on a server that rejects the
    /// refresh token, over a store whose database goes down whenever it is asked to clear.
    init() async throws {
        fake = try FakeAppServer(clock: TestClock())
        dead = fake.issueCredentials()
        try await store.save(dead)
        service = fake.service(store: store)
        events = service.events()
        fake.expireAllAccessTokens()
        fake.setRefreshBehaviour(.reject(code: "invalid_refresh_token"))
        store.clearFailureKind.withLock { $0 = .unavailable }
    }

    /// The refresh requests that presented the dead session's refresh token.
    var deadTokenRefreshes: Int {
        fake.requests.filter { $0.target == "/v1/auth/refresh" && $0.jsonBody?["refreshToken"] as? String == dead.refreshToken }.count
    }

    /// Makes the first call: the server rejects the refresh token and the store cannot be cleared.
    func endSessionWithoutRemoval() async -> SessionError? {
        await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
    }

    /// Signs in again and returns every event up to that `signedIn`: so a test can check that
    /// no other event was sent without waiting for one.
    func eventsUpToNextSignIn() async throws -> [SessionEvent] {
        try await UnitTests.eventsUpToNextSignIn(of: service, on: fake, from: events)
    }

    @Test("when the server rejects the refresh token and the store cannot be cleared, the call says the session ended but its credentials stay, with the store's error")
    func firstCallReportsEndedSessionAndStoreError() async throws {
        let error = await endSessionWithoutRemoval()
        #expect(error?.kind == .sessionEndedCredentialsNotRemoved)
        #expect(error?.reason == .refreshTokenRejected(.invalidRefreshToken))
        #expect(error?.isTransient == false)
        let storeError = error?.underlying as? TokenStoreError
        #expect(storeError?.kind == .unavailable)
        let description = error.map { String(describing: $0) } ?? ""
        #expect(description.contains("the session ended"))
        #expect(description.contains("could not be removed"))
        #expect(description.contains("no connection to the database"))
        let leaksAToken = description.contains(dead.accessToken.rawValue) || description.contains(dead.refreshToken)
        #expect(!leaksAToken, "the error's description shows a token")
        #expect(try await store.load() == dead)
        #expect(fake.refreshRequests == 1)
    }

    @Test("the next calls never present the rejected refresh token again, send no second signedOut, and keep saying why while the store is down")
    func laterCallsDoNotRepeatTheSignOut() async throws {
        _ = await endSessionWithoutRemoval()
        let requestsAfterFirstCall = fake.requests.count
        for _ in 0..<3 {
            let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(error?.kind == .sessionEndedCredentialsNotRemoved)
            #expect(error?.reason == .refreshTokenRejected(.invalidRefreshToken))
            #expect((error?.underlying as? TokenStoreError)?.kind == .unavailable)
        }
        #expect(fake.requests.count == requestsAfterFirstCall)   // neither a refresh nor an API call
        #expect(deadTokenRefreshes == 1)

        store.clearFailureKind.withLock { $0 = nil }
        #expect(try await eventsUpToNextSignIn() == [
            .signedOut(.refreshTokenRejected(.invalidRefreshToken)),
            .signedIn(accountID: FakeAppServer.memberID),
        ])
    }

    @Test("once the store can remove them, the next call removes them and says not signed in; isSignedIn is false all along")
    func removalSucceedsLater() async throws {
        _ = await endSessionWithoutRemoval()
        #expect(try await service.isSignedIn() == false)
        #expect(try await service.signedInAccountID() == nil)
        #expect(try await store.load() == dead)

        store.clearFailureKind.withLock { $0 = nil }
        let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .notSignedIn)
        #expect(try await store.load() == nil)
        #expect(try await service.isSignedIn() == false)
        #expect(deadTokenRefreshes == 1)
        #expect(fake.refreshRequests == 1)
    }

    @Test("credentials another program saves afterwards are used as usual, refreshes included")
    func otherCredentialsAreUsed() async throws {
        _ = await endSessionWithoutRemoval()
        let other = fake.issueCredentials()   // the same member, signed in again elsewhere
        try await store.save(other)
        fake.setRefreshBehaviour(.succeed)

        #expect(try await service.isSignedIn())
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        let usedOtherToken = fake.requests.last?.value(forHeaderField: "Authorization") == "Bearer \(other.accessToken.rawValue)"
        #expect(usedOtherToken)

        fake.expireAllAccessTokens()
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 2)
        let rotated = try #require(try await store.load())
        #expect(rotated.refreshToken != other.refreshToken)
        #expect(deadTokenRefreshes == 1)
    }

    @Test("signing out afterwards only removes the dead credentials: the server is not told again and no second signedOut is sent")
    func signOutRemovesDeadCredentials() async throws {
        _ = await endSessionWithoutRemoval()

        let whileDown = try await service.signOut()
        #expect(!whileDown.wasSignedIn)
        #expect(!whileDown.removedLocally)
        #expect(whileDown.localError?.kind == .unavailable)
        #expect(try await store.load() == dead)

        store.clearFailureKind.withLock { $0 = nil }
        let onceBack = try await service.signOut()
        #expect(!onceBack.wasSignedIn)
        #expect(onceBack.removedLocally)
        #expect(try await store.load() == nil)

        #expect(fake.state.withLock { $0.signOutRequests } == 0)
        #expect(deadTokenRefreshes == 1)
        #expect(try await eventsUpToNextSignIn() == [
            .signedOut(.refreshTokenRejected(.invalidRefreshToken)),
            .signedIn(accountID: FakeAppServer.memberID),
        ])
    }

    @Test("a call that loaded the credentials before the server rejected them does not present them again when its own token is refused")
    func callInFlightDoesNotPresentDeadToken() async throws {
        let gate = Gate()
        let early = Task {
            try await service.request { server, token in
                await gate.wait()
                return try await MemberAPI.fetchMe(server: server, accessToken: token)
            }
        }
        await gate.waitForArrivals(1)
        _ = await endSessionWithoutRemoval()

        await gate.open()
        let error = await #expect(throws: SessionError.self) { try await early.value }
        #expect(error?.kind == .sessionEndedCredentialsNotRemoved)
        #expect(deadTokenRefreshes == 1)

        store.clearFailureKind.withLock { $0 = nil }
        #expect(try await eventsUpToNextSignIn() == [
            .signedOut(.refreshTokenRejected(.invalidRefreshToken)),
            .signedIn(accountID: FakeAppServer.memberID),
        ])
    }
}
