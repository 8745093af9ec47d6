import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
@testable import SessionEngine
import Synchronization
import Testing
import TokenStore

extension LiveServer {
    /// Issue 36 against the reference server requiring DPoP with nonces
    /// (``DPoPServerEnvironment``): a session's tokens are worthless without its key, processes
    /// sharing a store refresh once with one key, and a nonce rotation costs no refresh.
    @Suite("DPoP-bound sessions", .dpopServer)
    struct LiveDPoPTests {
        #if EncryptedTokenStore
        /// A RepositoryService on the DPoP server binding sign-ins to EdDSA keys.
        static func service(store: any TokenStore) throws -> RepositoryService {
            var configuration = SessionService.Configuration.appAPI
            configuration.dpop = DPoPConfiguration(keys: .eddsa)
            return RepositoryService(server: try DPoPServerEnvironment.server(), tokenStore: store, configuration: configuration)
        }

        /// A fresh anonymous member's DPoP-bound session, and its stored credentials.
        static func signedIn(store: any TokenStore = InMemoryTokenStore()) async throws -> (RepositoryService, Member, Credentials) {
            let service = try service(store: store)
            let member = try await service.signInAnonymously()
            let stored = try #require(try await store.load())
            try #require(stored.dpopKey != nil && stored.accessTokenType == "DPoP", "the server bound the session")
            return (service, member, stored)
        }

        @Test("an access token copied without its key is refused, sent as Bearer and with another key's proof")
        func accessTokenWithoutItsKeyRefused() async throws {
            let (service, member, stored) = try await Self.signedIn()
            let stolen = stored.accessToken.rawValue
            let plain = try DPoPServerEnvironment.server()
            let asBearer = await #expect(throws: NetworkError.self) {
                try await MemberAPI.fetchMe(server: plain, accessToken: AccessToken(stolen))
            }
            #expect(asBearer?.statusCode == 401)
            let otherKey = plain.proving(try EdDSASigner.generate())
            let withOtherKey = await #expect(throws: NetworkError.self) {
                try await MemberAPI.fetchMe(server: otherKey, accessToken: AccessToken(stolen, scheme: .dpop))
            }
            #expect(withOtherKey?.statusCode == 401)
            #expect(withOtherKey?.isDPoPNonceChallenge == false, "refused for its key, not for a nonce")
            for error in [asBearer, withOtherKey].compactMap({ $0 }) {
                #expect(!String(describing: error).contains(stolen))
            }
            // The owner's calls still work.
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            try await service.signOut()
        }

        @Test("a refresh token copied without its key is refused, and the owner's session still refreshes")
        func refreshTokenWithoutItsKeyRefused() async throws {
            let store = InMemoryTokenStore()
            let (service, member, stored) = try await Self.signedIn(store: store)
            let key = try #require(stored.dpopKey)
            let plain = try DPoPServerEnvironment.server()
            for thief in [plain, plain.proving(try EdDSASigner.generate(), everyRequest: true)] {
                let error = await #expect(throws: NetworkError.self) {
                    try await AuthAPI.refresh(refreshToken: stored.refreshToken, server: thief)
                }
                #expect(error?.serverErrorCode == .invalidDPoPProof, "\(String(describing: error))")
                #expect(error.map { String(describing: $0).contains(stored.refreshToken) } == false)
            }
            let testMode = try DPoPServerEnvironment.testMode()
            let before = try await testMode.counters().refreshesByJKT[key.thumbprint, default: 0]
            try await testMode.expireAccessTokens()
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            let after = try #require(try await store.load())
            #expect(after.refreshToken != stored.refreshToken && after.dpopKey == key)
            #expect(try await testMode.counters().refreshesByJKT[key.thumbprint, default: 0] - before == 1)
            try await service.signOut()
        }

        @Test("two processes sharing one encrypted store through an expiry make 1 refresh, with the same key")
        func processesShareOneRefreshAndOneKey() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slow-dpop-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storeURL = folder.appendingPathComponent("credentials.enc")
            let keyURL = folder.appendingPathComponent("store.key")
            let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
            let (service, member, stored) = try await Self.signedIn(store: store)
            let key = try #require(stored.dpopKey)
            let testMode = try DPoPServerEnvironment.testMode()
            try await testMode.expireAccessTokens()
            let before = try await testMode.counters()
            let serverURL = try #require(DPoPServerEnvironment.serverURL)
            let outcomes = try await SessionProbeRunner.run(Array(
                repeating: ["--dpop", serverURL, storeURL.path, keyURL.path, "3"], count: 2))
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
                let lines = outcome.output.components(separatedBy: "\n")
                #expect(lines.filter { $0 == "ok \(member.id.uuidString)" }.count == 3)
                #expect(lines.contains("key \(key.thumbprint)"), "every process signs with the session's key")
            }
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == member)
            let after = try await testMode.counters()
            // A new process's first proof has no nonce yet: a challenged refresh call, if any,
            // is answered by one retry, never counted as a refresh.
            #expect((1...2).contains(after.refreshCalls - before.refreshCalls))
            let refreshed = after.refreshesByJKT.filter { $0.value != before.refreshesByJKT[$0.key, default: 0] }
            #expect(refreshed == [key.thumbprint: before.refreshesByJKT[key.thumbprint, default: 0] + 1],
                    "one refresh, by one key: the session's")
            #expect(try await store.load()?.dpopKey == key)
            try await service.signOut()
        }

        @Test("a nonce rotation during a storm of 1,000 callers after an expiry makes 1 refresh, and every call succeeds")
        func nonceRotationDuringStormOneRefresh() async throws {
            let (service, member, stored) = try await Self.signedIn()
            let key = try #require(stored.dpopKey)
            let testMode = try DPoPServerEnvironment.testMode()
            try await testMode.expireAccessTokens()
            let before = try await testMode.counters()
            // Stale before the storm (its refresh meets the challenge) and once more half-way
            // (its calls meet it).
            try await testMode.rotateNonce()
            let finished = StormCounter()
            let results = try await withThrowingTaskGroup(of: Member.self) { group in
                for _ in 0..<1_000 {
                    group.addTask {
                        let me = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
                        if finished.increment() == 500 { try await testMode.rotateNonce() }
                        return me
                    }
                }
                return try await group.reduce(into: [Member]()) { $0.append($1) }
            }
            #expect(results.count == 1_000 && results.allSatisfy { $0 == member })
            let after = try await testMode.counters()
            #expect(after.refreshesByJKT[key.thumbprint, default: 0] - before.refreshesByJKT[key.thumbprint, default: 0] == 1)
            #expect((1...2).contains(after.refreshCalls - before.refreshCalls), "a challenged refresh call is retried once")
            #expect(after.nonceChallenges - before.nonceChallenges >= 2, "both rotations were met")
            try await service.signOut()
        }
        #else
        @Test("DPoP-bound sessions need the EncryptedTokenStore trait (EdDSA keys)")
        func needsTrait() { Issue.record("built without the EncryptedTokenStore trait") }
        #endif
    }
}

/// A count several tasks add to.
final class StormCounter: Sendable {
    private let value = Mutex(0)
    /// Adds one and returns the new count.
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
