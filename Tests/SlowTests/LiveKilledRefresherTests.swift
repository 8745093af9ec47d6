import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

extension LiveServer {
    /// Processes sharing one encrypted store, one of them killed with SIGKILL while the server
    /// holds its refresh (test mode's `hang` fault): the held request still reaches the token
    /// logic later, with the refresh token the others also read from the store.
    @Suite("a refresher killed mid-request")
    struct LiveKilledRefresherTests {
        /// When the killed process's held request reaches the token logic.
        enum HeldRequestReaches: String, CustomTestStringConvertible, CaseIterable {
            /// After the second process refreshed and saved the new tokens (issue #26, item 8).
            case afterTheSecondProcessRefreshed
            /// Before the second process refreshes: that refresh is then the one presented again.
            case beforeTheSecondProcessRefreshes

            var testDescription: String { rawValue }

            /// How long the server holds the killed process's refresh: long enough for the second
            /// process to start and refresh meanwhile, well within the server's 30-second grace period.
            var holdSeconds: Double {
                switch self {
                case .afterTheSecondProcessRefreshed: 15
                case .beforeTheSecondProcessRefreshes: 3
                }
            }
        }

        @Test("a process killed while the server holds its refresh costs no session: the second process refreshes, and refreshes again after the held request went through",
              .testMode, arguments: HeldRequestReaches.allCases)
        func killedWhileHeld(_ order: HeldRequestReaches) async throws {
            #if EncryptedTokenStore
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storeURL = folder.appendingPathComponent("credentials.enc")
            let keyURL = folder.appendingPathComponent("store.key")
            let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
            let service = try SlowTestEnvironment.service(store: store)
            let member = try await service.signInAnonymously()
            let testMode = TestModeClient(server: try LiveServerEnvironment.server())
            let probe = [try #require(LiveServerEnvironment.serverURL), storeURL.path, keyURL.path, "1"]
            let before = try await testMode.counters()

            // Process A refreshes; the server holds the request; A is killed while it is held.
            try await testMode.expireAccessTokens()
            try await testMode.failNextRefreshes("hang", count: 1, seconds: order.holdSeconds)
            let processA = try await SessionProbeRunner.start(probe)
            try await Self.waitUntil("process A's refresh reached the server", within: 20) {
                try await testMode.counters().refreshCalls > before.refreshCalls
            }
            processA.killWithSIGKILL()
            let killed = try await processA.outcome()
            #expect(killed.wasKilled && killed.status == SIGKILL, "process A was not killed: \(killed.errorOutput)")
            #expect(try await Self.answeredRefreshes(testMode) == Self.answeredRefreshes(before),
                    "process A's refresh was answered before A was killed: the order is not the one tested")

            if order == .beforeTheSecondProcessRefreshes {
                try await Self.waitUntil("the held refresh went through", within: order.holdSeconds + 10) {
                    try await Self.answeredRefreshes(testMode) == Self.answeredRefreshes(before) + 1
                }
            }
            // Process B: the stored access token is refused, so it refreshes with the stored refresh token.
            let first = try await SessionProbeRunner.run([probe])[0]
            #expect(first.status == 0, "process B's first call failed: \(first.errorOutput)")
            #expect(first.output == "ok \(member.id.uuidString)\n")
            if order == .afterTheSecondProcessRefreshed {
                #expect(try await Self.answeredRefreshes(testMode) == Self.answeredRefreshes(before) + 1,
                        "the held refresh went through before process B refreshed: the order is not the one tested")
                try await Self.waitUntil("the held refresh went through", within: order.holdSeconds + 10) {
                    try await Self.answeredRefreshes(testMode) == Self.answeredRefreshes(before) + 2
                }
            }

            // Process B again: it refreshes with the refresh token it saved, and must stay signed in.
            try await testMode.expireAccessTokens()
            let second = try await SessionProbeRunner.run([probe])[0]
            #expect(second.status == 0, "process B's session ended: \(second.errorOutput)")
            #expect(second.output == "ok \(member.id.uuidString)\n")

            let after = try await testMode.counters()
            #expect(after.refreshCalls - before.refreshCalls == 3, "\(after.refreshCalls - before.refreshCalls) refresh calls")
            #expect(after.errors("refresh_token_reused") == before.errors("refresh_token_reused"), "the server saw a reused refresh token")
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            try await service.signOut()
            #else
            Issue.record("built without the EncryptedTokenStore trait")
            #endif
        }

        /// Refresh calls the server answered, or tried to answer for a client that is gone.
        static func answeredRefreshes(_ counters: TestCounters) -> Int {
            counters.routes["POST /v1/auth/refresh"] ?? 0
        }

        static func answeredRefreshes(_ testMode: TestModeClient) async throws -> Int {
            answeredRefreshes(try await testMode.counters())
        }

        /// Polls `condition` every 50 ms; throws (failing the test) when it is still false after `seconds`.
        static func waitUntil(_ what: String, within seconds: Double, _ condition: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if try await condition() { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestSetupError("waited \(seconds) s in vain: \(what)")
        }
    }
}
