import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("The engine keeps a session whose Keychain is locked, or whose background time ran out mid-refresh")
struct KeychainSessionTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()

    @Test("a prewarmed launch fails the call transiently (never notSignedIn, never signedOut) and works once the device is unlocked")
    func prewarmedLaunchKeepsTheSession() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        let credentials = fake.issueCredentials()
        try await KeychainTokenStore(service: service, keychain: keychain).save(credentials)
        keychain.setDeviceState(.beforeFirstUnlock)
        // The app is launched (prewarmed) before the first unlock.
        let session = fake.service(store: KeychainTokenStore(service: service, keychain: keychain))
        let events = session.events()
        do {
            _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
            Issue.record("the call succeeded with a locked Keychain")
        } catch let error as TokenStoreError {
            #expect(error.kind == .unavailable)
            #expect(error.isTransient)
        } catch {
            Issue.record("expected the store's transient error, got \(error)")
        }
        keychain.setDeviceState(.unlocked)
        _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == credentials)
        #expect(fake.refreshRequests == 0)
        try await session.signOut()
        var seen: [SessionEvent] = []
        for await event in events {
            seen.append(event)
            if case .signedOut = event { break }
        }
        #expect(seen.count == 1, "only the sign-out asked for: \(seen)")
    }

    @Test("a device locked mid-session while the token needs a refresh fails the call transiently and keeps the session")
    func lockedDeviceDuringRefreshKeepsTheSession() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        let credentials = fake.issueCredentials(expiresIn: 0.5)
        let store = KeychainTokenStore(service: service, options: .init(accessibility: .whenUnlockedThisDeviceOnly), keychain: keychain)
        try await store.save(credentials)
        let session = fake.service(store: store)
        keychain.setDeviceState(.locked)
        clock.advance(by: 1)
        let error = await #expect(throws: TokenStoreError.self) { _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.isTransient == true)
        keychain.setDeviceState(.unlocked)
        #expect(try await store.load() == credentials)
        _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)
    }

    @Test("when the background time is up before the refresh's section is entered, a still-valid token is used and an expired one fails transiently")
    func timeUpBeforeTheRefreshSection() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        let credentials = fake.issueCredentials(expiresIn: 30)
        let recorded = RecordedActivity(expiresAtOnce: true)      // a process about to be suspended
        let store = KeychainTokenStore(service: service, options: .init(backgroundActivity: recorded.activity), keychain: keychain)
        try await store.save(credentials)
        let session = fake.service(store: store)
        clock.advance(by: 29.5)   // due for a refresh (within the margin), still valid
        let sectionsBefore = recorded.begun
        _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(recorded.begun == sectionsBefore + 1, "the refresh ahead was tried")
        #expect(fake.refreshRequests == 0)
        clock.advance(by: 60)
        let error = await #expect(throws: TokenStoreError.self) { _ = try await session.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(error?.kind == .unavailable)
        #expect(fake.refreshRequests == 0)
        #expect(try await store.load() == credentials)
    }

    @Test("when the background time runs out mid-refresh, the refresh stops like one that got no answer: transient, session kept")
    func timeUpMidRefreshIsATransientRefreshFailure() async throws {
        let recorded = RecordedActivity()
        let store = KeychainTokenStore(service: service, options: .init(backgroundActivity: recorded.activity), keychain: keychain)
        let stored = Credentials(accessToken: AccessToken("access-1"), refreshToken: "refresh-1", accessTokenExpiresAt: Date(timeIntervalSinceNow: -10), accountID: "kim")
        try await store.save(stored)
        let activitiesBefore = recorded.begun
        let refreshing = AsyncStream<Void>.makeStream()
        let answers = LockedValue(false)
        let refresher = TokenRefresher { credentials, _ in
            if answers.withLock({ $0 }) {
                return Tokens(accessToken: AccessToken("access-2"), refreshToken: "refresh-2", expiresIn: 900)
            }
            refreshing.continuation.yield()
            try await Task.sleep(for: .seconds(60))   // the server never answers
            throw TestFailure("not cancelled")
        }
        let session = SessionService(server: try Server(baseURL: "https://auth.example.com"), tokenStore: store,
                                     configuration: .init(refresher: refresher))
        let events = session.events()
        let call = Task { try await session.request { _, token in token.rawValue } }
        for await _ in refreshing.stream { break }
        recorded.expire()
        let error = try await TokenStoreTesting.withDeadline(seconds: 10, "the call after time up") {
            do {
                _ = try await call.value
                return nil as SessionError?
            } catch let error as SessionError {
                return error
            }
        }
        #expect(error?.kind == .refreshFailed)
        #expect(error?.isTransient == true)
        #expect(recorded.begun == activitiesBefore + 1 && recorded.ended == recorded.begun)
        #expect(try await store.load() == stored)
        // The next call refreshes (the section is free again) and works.
        answers.withLock { $0 = true }
        #expect(try await session.request { _, token in token.rawValue } == "access-2")
        #expect(try await store.load()?.refreshToken == "refresh-2")
        try await session.signOut()
        var seen: [SessionEvent] = []
        for await event in events {
            seen.append(event)
            if case .signedOut = event { break }
        }
        #expect(seen.filter { if case .signedOut = $0 { true } else { false } }.count == 1, "\(seen)")
    }
}
