import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

extension LiveServer {
    /// The session's hardest paths against the live reference server: real expiry, rotation,
    /// reuse detection, refresh faults, and processes sharing one encrypted store.
    @Suite("the session")
    struct LiveSessionTests {
        @Test("an anonymous member signs in, sees themself, and signs out on the server")
        func anonymousSession() async throws {
            let store = InMemoryTokenStore()
            let service = try SlowTestEnvironment.service(store: store)
            let member = try await service.signInAnonymously()
            #expect(member.isAnonymous)
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            let token = try #require(try await store.load()).accessToken
            let result = try await service.signOut()
            #expect(result.serverConfirmed)
            #expect(try await service.isSignedIn() == false)
            let error = await #expect(throws: NetworkError.self) {
                try await MemberAPI.fetchMe(server: LiveServerEnvironment.server(), accessToken: token)
            }
            #expect(error?.statusCode == 401)
        }

        @Test("a session lives through several real access-token expiries",
              .enabled(if: (LiveServerEnvironment.accessTokenLifetime ?? 100) <= 10,
                       "APP_ACCESS_TOKEN_LIFETIME is not set to 10 s or less: the server's tokens live too long to wait out"))
        func livesThroughExpiries() async throws {
            let lifetime = try #require(LiveServerEnvironment.accessTokenLifetime)
            let store = InMemoryTokenStore()
            let service = try SlowTestEnvironment.service(store: store)
            let events = service.events()
            let member = try await service.signUp(email: LiveServerEnvironment.uniqueEmail("expiry"),
                                                  password: SlowTestEnvironment.password, nickname: "expiry")
            var accessTokens: Set<AccessToken> = []
            for _ in 0..<3 {
                try await Task.sleep(for: .seconds(lifetime + 0.5))
                #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
                accessTokens.insert(try #require(try await store.load()).accessToken)
            }
            #expect(accessTokens.count == 3)
            var refreshed = 0
            for await event in events {
                if case .refreshed = event { refreshed += 1 }
                if refreshed == 3 { break }
            }
            #expect(refreshed == 3)
            try await service.signOut()
        }

        @Test("one process calling every 250 ms for 40 s through short-lived tokens: every call works, no refresh limit",
              .testMode, .enabled(if: (LiveServerEnvironment.accessTokenLifetime ?? 100) <= 10,
                                  "APP_ACCESS_TOKEN_LIFETIME is not set to 10 s or less: the tokens would not expire during the run"))
        func steadyCallsThroughShortLivedTokens() async throws {
            let lifetime = try #require(LiveServerEnvironment.accessTokenLifetime)
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let service = try SlowTestEnvironment.service()
            let member = try await service.signInAnonymously()
            let before = try await testMode.counters()
            var failures: [String] = []
            let clock = ContinuousClock()
            let start = clock.now
            var calls = 0
            while clock.now - start < .seconds(40) {
                do {
                    #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
                } catch {
                    failures.append(String(describing: error))
                }
                calls += 1
                try await Task.sleep(for: .milliseconds(250))
            }
            let after = try await testMode.counters()
            #expect(calls >= 100)
            #expect(failures.isEmpty, "\(failures.count) of \(calls) calls failed: \(failures.prefix(3))")
            // Refreshed ahead at half the lifetime: about 40 / (lifetime / 2) refreshes, no 401 for this member.
            let refreshes = after.refreshCalls - before.refreshCalls
            #expect(Double(refreshes) <= 40 / (lifetime / 2) + 3, "\(refreshes) refreshes")
            try await service.signOut()
        }

        @Test("a stale copy of the credentials that refreshes after the original is caught as reuse, and ends both sessions", .testMode)
        func reuseDetectionThroughTheSDK() async throws {
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let original = InMemoryTokenStore()
            let service = try SlowTestEnvironment.service(store: original)
            try await service.signInAnonymously()
            let staleCopy = InMemoryTokenStore(credentials: try await original.load())
            let stale = try SlowTestEnvironment.service(store: staleCopy)
            let staleEvents = stale.events()

            // The original refreshes twice, so the token the stale copy holds has a child
            // that was used: presenting it again is reuse, not the retry of a lost response
            // (which the server forgives within its grace period).
            for _ in 0..<2 {
                try await testMode.expireAccessTokens()
                _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
            }
            let error = await #expect(throws: SessionError.self) { try await stale.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(error?.kind == .sessionEnded)
            #expect(error?.reason == .refreshTokenRejected(.refreshTokenReused))
            #expect(try await staleCopy.load() == nil)
            var iterator = staleEvents.makeAsyncIterator()
            #expect(await iterator.next() == .signedOut(.refreshTokenRejected(.refreshTokenReused)))

            // The server revoked the whole family: the original session is over too.
            let original401 = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(original401?.kind == .sessionEnded)
            #expect(try await original.load() == nil)
        }

        @Test("a refresh that fails with 500, a dropped connection or a stall on every attempt keeps the session, and the next call works",
              .testMode, arguments: ["fail", "drop", "hang"])
        func refreshFaults(mode: String) async throws {
            let server = try LiveServerEnvironment.server()
            let testMode = TestModeClient(server: server)
            let store = InMemoryTokenStore()
            let quick = try LiveRefreshRetryTests.freshConnectionServer(timeout: 1)
            let service = RepositoryService(server: quick, tokenStore: store)
            let member = try await service.signInAnonymously()
            let before = try #require(try await store.load())

            try await testMode.expireAccessTokens()
            // The app's preset retries these (its server forgives a lost response): three attempts in all.
            try await testMode.failNextRefreshes(mode, count: 3, seconds: mode == "hang" ? 3 : nil)
            let counters = try await testMode.counters()
            let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(error?.kind == .refreshFailed, "\(String(describing: error))")
            #expect(error?.isTransient == true)
            #expect(try await testMode.counters().refreshCalls - counters.refreshCalls == 3)
            #expect(try await store.load() == before)

            if mode == "hang" { try await Task.sleep(for: .seconds(3)) }
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            #expect(try await store.load()?.refreshToken != before.refreshToken)
            try await testMode.reset()
            try await service.signOut()
        }

        @Test("two processes sharing one encrypted store through an expiry refresh once, and both keep working", .testMode)
        func processesShareOneRefresh() async throws {
            #if EncryptedTokenStore
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storeURL = folder.appendingPathComponent("credentials.enc")
            let keyURL = folder.appendingPathComponent("store.key")
            let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
            let service = try SlowTestEnvironment.service(store: store)
            let member = try await service.signInAnonymously()
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())

            try await testMode.expireAccessTokens()
            let before = try await testMode.counters().refreshCalls
            let serverURL = try #require(LiveServerEnvironment.serverURL)
            let outcomes = try await SessionProbeRunner.run(Array(
                repeating: [serverURL, storeURL.path, keyURL.path, "3"], count: 2))
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
                #expect(outcome.output.components(separatedBy: "\n").filter { $0 == "ok \(member.id.uuidString)" }.count == 3)
            }
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            #expect(try await testMode.counters().refreshCalls - before == 1)
            try await service.signOut()
            #else
            Issue.record("built without the EncryptedTokenStore trait")
            #endif
        }
    }
}
