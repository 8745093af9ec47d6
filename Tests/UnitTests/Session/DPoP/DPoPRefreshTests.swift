#if EncryptedTokenStore
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 36, step 5: the refresh of a DPoP-bound session proves with the stored key, inside the
/// engine's rules: a nonce challenge is answered once and never counts, a refused proof keeps
/// the session, a bearer answer is refused or accepted as configured.
@Suite("The refresh of a DPoP-bound session")
struct DPoPRefreshTests {
    /// A service over `store` signed in through `fake`, whose access token has expired.
    static func signedIn(_ fake: DPoPTokenServer, store: any TokenStore = InMemoryTokenStore(), clock: TestClock = TestClock(/* now */),
                         dpop: DPoPConfiguration? = DPoPConfiguration(keys: .eddsa),
                         change: (inout SessionService.Configuration) -> Void = { _ in }) async throws -> SessionService {
        var configuration = fake.configuration(clock: clock, dpop: dpop)
        change(&configuration)
        let service = SessionService(server: try fake.server(), tokenStore: store, configuration: configuration)
        _ = try await DPoPSignInTests.signIn(service)
        clock.advance(by: 700)
        return service
    }

    static func call(_ service: SessionService) async throws {
        try await service.request { server, token in try await server.send(DPoPMeEndpoint(), accessToken: token) }
    }

    @Test("the refresh proves with the stored key and carries it unchanged")
    func refreshProvesWithStoredKey() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let service = try await Self.signedIn(fake, store: store)
        let key = try #require(try await store.load()?.dpopKey)
        try await Self.call(service)
        let refresh = try #require(fake.tokenRequests.last)
        #expect(refresh.formField("refresh_token") == "rt-1")
        let proof = try #require(DPoPProofReader(refresh))
        #expect(proof.signatureVerifies)
        #expect(proof.jwkThumbprint == key.thumbprint)
        let renewed = try #require(try await store.load())
        #expect(renewed.refreshToken == "rt-2")
        #expect(renewed.dpopKey == key)
        #expect(renewed.accessTokenType == "DPoP")
        #expect(fake.resourceRequests.last?.headerFields["Authorization"] == "DPoP at-2")
    }

    @Test("a nonce challenge at the token endpoint: 2 requests with the same refresh token, 1 refresh, nothing counted, session kept")
    func nonceChallengeAnsweredOnce() async throws {
        let fake = DPoPTokenServer()
        let records = TestMutex<[SessionRecord.Event]>([])
        let service = try await Self.signedIn(fake) { $0.observer = SessionObserver { record in records.withLock { $0.append(record.event) } } }
        fake.set { $0.requiredNonce = "n-\(UUID().uuidString.prefix(8))" }
        let before = fake.tokenRequests.count
        try await Self.call(service)
        let refreshes = Array(fake.tokenRequests.dropFirst(before))
        #expect(refreshes.count == 2)
        #expect(refreshes.map { $0.formField("refresh_token") } == ["rt-1", "rt-1"])
        #expect(DPoPProofReader(refreshes[0])?.payload["nonce"] == nil)
        #expect(DPoPProofReader(refreshes[1])?.payload["nonce"] as? String == fake.state.withLock { $0.requiredNonce })
        #expect(fake.issued == 2, "the sign-in and 1 refresh")
        let events = records.withLock { $0 }
        #expect(!events.contains { if case .refreshLimitCounted = $0 { true } else { false } })
        #expect(events.contains(.saved))
    }

    @Test("a second challenge fails the refresh transiently, keeps the session, and gives back its refresh-limit admission")
    func secondChallengeTransientAndRefunded() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let clock = TestClock()
        let records = TestMutex<[SessionRecord.Event]>([])
        let service = try await Self.signedIn(fake, store: store, clock: clock) {
            $0.refreshLimit = RefreshLimit(maximumRefreshes: 1, interval: 30)
            $0.observer = SessionObserver { record in records.withLock { $0.append(record.event) } }
        }
        clock.advance(by: -700)   // the token is not due: a refused one is an unexplained refresh
        fake.set { $0.mode = .challengeEveryTime; $0.refusedAccessTokens = ["at-1"] }
        let error = await #expect(throws: SessionError.self) { try await Self.call(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(error?.isTransient == true)
        #expect(try await store.load()?.refreshToken == "rt-1", "the session is kept")
        #expect(records.withLock { $0 }.contains(.dpopNonceChallenge(attempt: 1)))
        let failures = records.withLock { $0 }.compactMap { event -> RefreshFailure? in
            if case let .serverAnswered(_, _, .failed(failure)) = event { return failure } else { return nil }
        }
        #expect(failures.first?.kind == .dpopNonce)
        #expect(failures.first?.delivery == .notDelivered)
        // The limit allows 1 unexplained refresh: the one that ended on the challenge was given back.
        fake.set { $0.mode = .dpop }
        try await Self.call(service)
        #expect(try await store.load()?.refreshToken == "rt-2")
        #expect(!records.withLock { $0 }.contains { if case .sessionEnded = $0 { true } else { false } })
        #expect(!records.withLock { $0 }.contains { if case .refreshLimitExceeded = $0 { true } else { false } })
    }

    @Test("invalid_dpop_proof at the token endpoint is transient: the session is kept")
    func refusedProofTransient() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let records = TestMutex<[SessionRecord.Event]>([])
        let service = try await Self.signedIn(fake, store: store) {
            $0.observer = SessionObserver { record in records.withLock { $0.append(record.event) } }
        }
        fake.set { $0.mode = .refuseProofs }
        let error = await #expect(throws: SessionError.self) { try await Self.call(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(try await store.load()?.refreshToken == "rt-1")
        #expect(records.withLock { $0 }.contains(.dpopProofRefused))
        #expect(!records.withLock { $0 }.contains { if case .sessionEnded = $0 { true } else { false } })
    }

    @Test("a bearer answer to a DPoP refresh under .refuse ends the session with dpopNotHonoured")
    func bearerRefreshRefused() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let service = try await Self.signedIn(fake, store: store)
        let events = service.events()
        fake.set { $0.mode = .bearer }
        let error = await #expect(throws: SessionError.self) { try await Self.call(service) }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .dpopNotHonoured)
        #expect(try await store.load() == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.dpopNotHonoured))
    }

    @Test("a bearer answer to a DPoP refresh under .accept is kept with the key; calls send Bearer, token requests still prove")
    func bearerRefreshAccepted() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let clock = TestClock()
        let service = try await Self.signedIn(fake, store: store, clock: clock,
                                              dpop: DPoPConfiguration(keys: .eddsa, bearerAnswer: .accept))
        let key = try #require(try await store.load()?.dpopKey)
        fake.set { $0.mode = .bearer }
        try await Self.call(service)
        let renewed = try #require(try await store.load())
        #expect(renewed.dpopKey == key)
        #expect(renewed.accessTokenType == nil)
        #expect(fake.resourceRequests.last?.headerFields["Authorization"] == "Bearer at-2")
        clock.advance(by: 700)
        try await Self.call(service)
        let lastRefresh = try #require(fake.tokenRequests.last)
        #expect(DPoPProofReader(lastRefresh)?.jwkThumbprint == key.thumbprint)
    }

    @Test("a stored key no configured kind can sign with fails with dpopKeyUnusable naming the algorithm, and sends nothing")
    func unknownKeyTypedError() async throws {
        let fake = DPoPTokenServer()
        var credentials = Credentials(accessToken: AccessToken("at-x"), refreshToken: "rt-x",
                                      accessTokenExpiresAt: TestClock().now.addingTimeInterval(600), accountID: "kim")
        credentials.dpopKey = DPoPTestKeys.secureEnclave()
        credentials.accessTokenType = "DPoP"
        let service = SessionService(server: try fake.server(), tokenStore: InMemoryTokenStore(credentials: credentials),
                                     configuration: fake.configuration(clock: TestClock(), dpop: nil))
        let error = await #expect(throws: SessionError.self) { try await Self.call(service) }
        #expect(error?.kind == .dpopKeyUnusable)
        #expect(error?.detail?.contains("ES256") == true)
        #expect(error?.detail?.contains("alsoReads") == true)
        #expect(fake.transport.requests.isEmpty)
    }

    @Test("two services on one encrypted store sign with the same key, and the second refreshes with the first's tokens")
    func twoServicesOneStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("session.enc")
        let fake = DPoPTokenServer()
        let clock = TestClock()
        let first = try await Self.signedIn(fake, store: try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("pass-1234")),
                                            clock: clock)
        // Another program: its own store instance and service, DPoP not configured (the stored key is used).
        let second = SessionService(server: try fake.server(),
                                    tokenStore: try await EncryptedFileTokenStore(fileURL: url, key: .passphrase("pass-1234")),
                                    configuration: fake.configuration(clock: clock, dpop: nil))
        try await Self.call(first)
        clock.advance(by: 700)
        try await Self.call(second)
        let thumbprints = Set(fake.transport.requests.compactMap { DPoPProofReader($0)?.jwkThumbprint })
        #expect(thumbprints.count == 1)
        #expect(fake.tokenRequests.map { $0.formField("refresh_token") } == [nil, "rt-1", "rt-2"])
        #expect(fake.transport.requests.allSatisfy { DPoPProofReader($0)?.signatureVerifies ?? true })
    }

    @Test("a storm of 1,000 callers with the token expired and a nonce rotation at the token endpoint makes 1 refresh")
    func stormWithNonceRotation() async throws {
        let fake = DPoPTokenServer()
        let service = try await Self.signedIn(fake)
        fake.set { $0.requiredNonce = "rotated-\(UUID().uuidString.prefix(8))" }
        let before = fake.tokenRequests.count
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { try await Self.call(service) } }
            try await group.waitForAll()
        }
        #expect(fake.issued == 2, "the sign-in and 1 refresh")
        #expect(fake.tokenRequests.count - before == 2, "the challenged request and its retry")
        #expect(fake.resourceRequests.count == 1_000)
        #expect(fake.resourceRequests.allSatisfy { $0.headerFields["Authorization"] == "DPoP at-2" })
    }
}
#endif
