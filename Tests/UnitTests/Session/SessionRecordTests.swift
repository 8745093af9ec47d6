import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// Issue #21, item 1: every decision of a refresh reaches the observer as a typed record, in
/// order, tied together by the refresh id, and no record carries a token.
@Suite("The engine records each refresh decision for the observer")
struct SessionRecordTests {
    let clock = TestClock()
    let fake = ScriptedTokenServer()
    let collector = RecordCollector()

    func makeService(store: any TokenStore = InMemoryTokenStore(), observed: Bool = true) throws -> SessionService {
        var configuration = SessionService.Configuration.json(ScriptedTokenServer.refresh)
        let clock = clock
        configuration.now = { clock.now }
        configuration.sleep = { clock.advance(by: $0) }
        if observed { configuration.observer = collector.observer }
        return SessionService(server: try fake.server, tokenStore: store, configuration: configuration)
    }

    func me(_ service: SessionService) async throws -> MeEndpoint.Me {
        try await service.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
    }

    @Test("a storm of calls on an expired token: one refresh started, the others joined, one server answer, saved")
    func storm() async throws {
        let service = try makeService()
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        let gate = Gate()
        fake.onRefresh.withLock { $0 = { await gate.wait() } }
        clock.advance(by: 901)
        try await withThrowingTaskGroup(of: MeEndpoint.Me.self) { group in
            for _ in 0..<5 { group.addTask { try await me(service) } }
            await gate.waitForArrivals(1)
            while collector.events.filter({ $0 == .joinedRefresh(.due) }).count < 4 { try await Task.sleep(for: .milliseconds(1)) }
            await gate.open()
            for try await answer in group { #expect(answer.name == "kim") }
        }
        #expect(fake.refreshCalls == 1)
        #expect(collector.records.allSatisfy { $0.refreshID == 1 })
        #expect(collector.events.filter { $0 == .joinedRefresh(.due) }.count == 4)
        #expect(collector.events.filter { $0 != .joinedRefresh(.due) } == [
            .refreshStarted(.due),
            .exclusiveSectionEntered(waited: 0),
            .serverAnswered(attempt: 1, duration: 0, outcome: .rotated),
            .saved,
            .refreshFinished(duration: 0, succeeded: true),
        ])
    }

    @Test("a refresh that waited for another process's rotation uses the stored tokens and calls no server")
    func anotherProcessRotated() async throws {
        let store = InMemoryTokenStore()
        let first = try makeService(store: store, observed: false)
        let second = try makeService(store: store)
        try await first.startSession(tokens: fake.signIn(), accountID: "kim")
        let gate = Gate()
        fake.onRefresh.withLock { $0 = { await gate.wait() } }
        clock.advance(by: 901)
        async let firstCall = me(first)
        await gate.waitForArrivals(1)  // the first holds the exclusive section, at the server
        async let secondCall = me(second)
        while collector.events.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: 2)
        await gate.open()
        _ = try await (firstCall, secondCall)
        #expect(fake.refreshCalls == 1)
        #expect(collector.events == [
            .refreshStarted(.due),
            .exclusiveSectionEntered(waited: 2),
            .storeHeldNewerTokens,
            .refreshFinished(duration: 2, succeeded: true),
        ])
    }

    @Test("a rejected refresh token: the server's answer, then the session ended, for the same reason")
    func rejection() async throws {
        let service = try makeService()
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        fake.script(.reply(.json(401, #"{"detail":"Token is invalid","code":"token_not_valid"}"#)))
        clock.advance(by: 901)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        let reason = try #require(error?.reason)
        #expect(collector.events == [
            .refreshStarted(.due),
            .exclusiveSectionEntered(waited: 0),
            .serverAnswered(attempt: 1, duration: 0, outcome: .rejected(reason)),
            .sessionEnded(reason),
            .refreshFinished(duration: 0, succeeded: false),
        ])
    }

    @Test("a transient failure: the server's answer classified, no retry of an ambiguous failure by default, the session kept")
    func transient() async throws {
        let service = try makeService()
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        fake.script(.reply(.json(502, #"{"detail":"bad gateway"}"#)))
        clock.advance(by: 901)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(collector.events == [
            .refreshStarted(.due),
            .exclusiveSectionEntered(waited: 0),
            .serverAnswered(attempt: 1, duration: 0, outcome: .failed(RefreshFailure(kind: .httpStatus, statusCode: 502, delivery: .ambiguous))),
            .refreshFinished(duration: 0, succeeded: false),
        ])
        #expect(try await service.isSignedIn())
    }

    @Test("a server refusing every fresh token: the refresh limit counts each refresh, then refuses the next")
    func loop() async throws {
        let service = try makeService()
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        fake.refusesEveryAccessToken.withLock { $0 = true }
        for _ in 0..<5 {
            await #expect(throws: NetworkError.self) { try await me(service) }
        }
        let tripped = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(tripped?.kind == .refreshLimitExceeded)
        let guardEvents = collector.events.filter {
            if case .refreshLimitCounted = $0 { return true }
            if case .refreshLimitExceeded = $0 { return true }
            return false
        }
        #expect(guardEvents == (1...5).map { .refreshLimitCounted(count: $0, limit: 5) } + [.refreshLimitExceeded(count: 5)])
        #expect(Set(collector.records.map(\.refreshID)) == Set(1...6))
        #expect(collector.records.first { $0.refreshID == 6 }?.event == .refreshStarted(.authenticationFailure(statusCode: 401)))
    }

    @Test("rotated credentials the store cannot save: kept in memory, and the store's failure recorded")
    func storeFailure() async throws {
        let store = FailingSaveStore()
        let service = try makeService(store: store)
        try await service.startSession(tokens: fake.signIn(), accountID: "kim")
        store.failsSaving.withLock { $0 = true }
        clock.advance(by: 901)
        await #expect(throws: TokenStoreError.self) { try await me(service) }
        #expect(Array(collector.events.suffix(3)) == [
            .keptInMemory,
            .storeFailed(.save, error: String(describing: FailingSaveStore.failure)),
            .refreshFinished(duration: 0, succeeded: false),
        ])
    }

    @Test("no record's description holds a token the server issued, on any path")
    func noSecrets() async throws {
        let paths: [@Sendable (SessionRecordTests) async throws -> Void] = [
            { try await $0.storm() }, { try await $0.anotherProcessRotated() }, { try await $0.rejection() },
            { try await $0.transient() }, { try await $0.loop() }, { try await $0.storeFailure() },
        ]
        var checked = 0
        for path in paths {
            let run = SessionRecordTests()
            try await path(run)
            for record in run.collector.records {
                checked += 1
                for text in [record.description, String(reflecting: record), "\(record.event)"] {
                    for token in run.fake.issuedTokens {
                        #expect(!text.contains(token), "a record holds a token: \(record.event)")
                    }
                }
            }
        }
        #expect(checked > 20)
    }
}

/// An in-memory store whose saves fail on demand (a full disk).
final class FailingSaveStore: TokenStore {
    static let failure = TokenStoreError(kind: .io, path: "/tmp/credentials", reason: "the disk is full")
    let inner = InMemoryTokenStore()
    let failsSaving = TestMutex(false)

    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        if failsSaving.withLock({ $0 }) { throw Self.failure }
        try await inner.save(credentials)
    }
    func clear() async throws(TokenStoreError) { try await inner.clear() }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}
