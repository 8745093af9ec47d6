import AppRepository
import AppSDKHarness
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import SessionEngine
import Synchronization
import Testing
import TokenStore

extension LiveServer {
    /// Issue #21, item 4, against the reference server: a refresh failure that may pass is
    /// retried with the same refresh token when that is safe, and the server sees no reuse.
    @Suite("refresh retries")
    struct LiveRefreshRetryTests {
        /// A service with the app's preset (`forgiving`: whether it retries an ambiguous
        /// failure) and the records of its observer.
        static func service(store: any TokenStore, forgiving: Bool = true) throws -> (RepositoryService, Records) {
            let records = Records()
            var configuration = RepositoryService.Configuration.appAPI
            configuration.refreshRetry.serverForgivesLostResponse = forgiving
            configuration.observer = SessionObserver { record in records.append(record) }
            return (RepositoryService(server: try freshConnectionServer(), tokenStore: store, configuration: configuration), records)
        }

        /// The live server over a transport that opens a connection per request. On Linux,
        /// FoundationNetworking (libcurl) sends a request again by itself when a reused
        /// connection closes before any answer: a lost answer would reach the engine as a
        /// second request of the transport's own, not as the failure the engine decides on.
        static func freshConnectionServer(timeout: TimeInterval = URLSessionTransport.defaultTimeout) throws -> Server {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Connection": "close"]
            return try Server(baseURL: try LiveServerEnvironment.server().baseURL,
                              transport: URLSessionTransport(configuration: configuration, timeout: timeout))
        }

        /// An observer's records.
        final class Records: Sendable {
            private let records = Mutex<[SessionRecord]>([])
            func append(_ record: SessionRecord) { records.withLock { $0.append(record) } }
            func count(_ matches: (SessionRecord.Event) -> Bool) -> Int { records.withLock { $0.filter { matches($0.event) }.count } }
        }

        @Test("a refresh answered 503 with Retry-After: 1 twice is retried: the call succeeds after three requests and one rotation, no reuse",
              .testMode)
        func unavailableTwice() async throws {
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let store = InMemoryTokenStore()
            let (service, records) = try Self.service(store: store)
            let member = try await service.signInAnonymously()
            let before = try #require(try await store.load())
            try await testMode.expireAccessTokens()
            try await testMode.failNextRefreshes("unavailable", count: 2, seconds: 1)
            let counters = try await testMode.counters()
            let started = ContinuousClock.now

            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            #expect(ContinuousClock.now - started >= .seconds(2))  // Retry-After honoured, twice
            let after = try await testMode.counters()
            #expect(after.refreshCalls - counters.refreshCalls == 3)
            #expect(after.errors("refresh_token_reused") == counters.errors("refresh_token_reused"))
            #expect(records.count { if case .serverAnswered(_, _, .rotated) = $0 { true } else { false } } == 1)
            #expect(records.count { if case .retryScheduled = $0 { true } else { false } } == 2)
            #expect(try await store.load()?.refreshToken != before.refreshToken)
            try await testMode.reset()
            try await service.signOut()
        }

        @Test("a refresh whose response was lost is retried once and accepted within the server's grace period: no sign-out",
              .testMode)
        func lostResponseIsForgiven() async throws {
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let store = InMemoryTokenStore()
            let (service, records) = try Self.service(store: store)
            let member = try await service.signInAnonymously()
            try await testMode.expireAccessTokens()
            try await testMode.failNextRefreshes("drop-response", count: 1)
            let counters = try await testMode.counters()

            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            let after = try await testMode.counters()
            #expect(after.refreshCalls - counters.refreshCalls == 2)
            #expect(after.errors("refresh_token_reused") == counters.errors("refresh_token_reused"))
            #expect(records.count { if case .retryScheduled(attempt: 2, _) = $0 { true } else { false } } == 1)
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            #expect(try await service.isSignedIn())
            try await testMode.reset()
            try await service.signOut()
        }

        @Test("a lost response is not retried when the configuration says the server forgives none: refreshFailed, the session kept",
              .testMode)
        func lostResponseNotForgiven() async throws {
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let store = InMemoryTokenStore()
            let (service, records) = try Self.service(store: store, forgiving: false)
            _ = try await service.signInAnonymously()
            let before = try #require(try await store.load())
            try await testMode.expireAccessTokens()
            try await testMode.failNextRefreshes("drop-response", count: 1)
            let counters = try await testMode.counters()

            let error = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(error?.kind == .refreshFailed)
            #expect(try await testMode.counters().refreshCalls - counters.refreshCalls == 1)
            #expect(records.count { if case .retryScheduled = $0 { true } else { false } } == 0)
            #expect(try await store.load() == before)
            try await testMode.reset()
        }
    }
}
