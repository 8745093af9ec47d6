import AppRepository
import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
@testable import SessionEngine
import Synchronization
import Testing
import TokenStore

/// Issue #21, item 4: a refresh failure that may pass is retried inside the same exclusive
/// section and single flight, with the same refresh token, only when that cannot be taken for
/// reuse: always when the request provably did not reach the token logic, for an ambiguous
/// outcome only on a server that forgives a lost response; never a rejection, never past the
/// last waiting caller.
@Suite("A refresh failure that may pass is retried when that is safe")
struct RefreshRetryTests {
    let clock = TestClock()
    let fake = ScriptedTokenServer()
    let collector = RecordCollector()
    /// The waits the engine asked for, in seconds.
    let waits = LockedValue<[TimeInterval]>([])

    func makeService(forgiving: Bool = false, store: any TokenStore = InMemoryTokenStore(),
                     sleep: (@Sendable (TimeInterval) async throws -> Void)? = nil) throws -> SessionService {
        var configuration = SessionService.Configuration.json(ScriptedTokenServer.refresh)
        let clock = clock, waits = waits
        configuration.now = { clock.now }
        configuration.sleep = sleep ?? { seconds in
            waits.withLock { $0.append(seconds) }
            clock.advance(by: seconds)
        }
        configuration.refreshRetry.random = { 0 }
        configuration.refreshRetry.serverForgivesLostResponse = forgiving
        configuration.observer = collector.observer
        return SessionService(server: try fake.server, tokenStore: store, configuration: configuration)
    }

    func me(_ service: SessionService) async throws -> MeEndpoint.Me {
        try await service.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
    }

    func expiredSession(_ service: SessionService) async throws -> Tokens {
        let tokens = fake.signIn()
        try await service.startSession(tokens: tokens, accountID: "kim")
        clock.advance(by: 901)
        return tokens
    }

    static let notDelivered: [ScriptedTokenServer.Answer] = [
        .transport(.cannotConnect),
        .reply(.json(429, #"{"detail":"slow down"}"#)),
        .reply(.json(503, #"{"detail":"down"}"#, headers: ["Retry-After": "1"])),
    ]

    static let ambiguous: [ScriptedTokenServer.Answer] = [
        .transport(.timedOut),
        .transport(.connectionLost),
        .rotateThenDrop,
        .reply(.json(500, #"{"detail":"oops"}"#)),
        .reply(.json(503, #"{"detail":"down"}"#)),
        .reply(.json(200, "<html>garbage</html>")),
    ]

    @Test("a request that provably did not reach the token logic is retried with the same refresh token, on any server",
          arguments: notDelivered)
    func notDeliveredIsRetried(failure: ScriptedTokenServer.Answer) async throws {
        let service = try makeService()
        let tokens = try await expiredSession(service)
        fake.script(failure, failure)
        #expect(try await me(service).name == "kim")
        #expect(fake.refreshCalls == 3)
        #expect(fake.presented == Array(repeating: tokens.refreshToken, count: 3))
        #expect(collector.events.filter { if case .retryScheduled = $0 { true } else { false } }.count == 2)
    }

    @Test("an ambiguous outcome is not retried on a server that forgives no lost response: refreshFailed, the session kept",
          arguments: ambiguous)
    func ambiguousIsNotRetriedByDefault(failure: ScriptedTokenServer.Answer) async throws {
        let store = InMemoryTokenStore()
        let service = try makeService(store: store)
        _ = try await expiredSession(service)
        let stored = try await store.load()
        fake.script(failure)
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(fake.refreshCalls == 1)
        #expect(waits.withLock { $0 }.isEmpty)
        #expect(try await store.load() == stored)
    }

    @Test("an ambiguous outcome is retried on a server that forgives a lost response", arguments: ambiguous)
    func ambiguousIsRetriedWhenForgiven(failure: ScriptedTokenServer.Answer) async throws {
        let service = try makeService(forgiving: true)
        let tokens = try await expiredSession(service)
        fake.script(failure)
        #expect(try await me(service).name == "kim")
        #expect(fake.refreshCalls == 2)
        #expect(fake.presented == [tokens.refreshToken, tokens.refreshToken])
        #expect(waits.withLock { $0 } == [0.5])
    }

    @Test("a rejection is never retried, even on a forgiving server")
    func rejectionIsNeverRetried() async throws {
        let service = try makeService(forgiving: true)
        _ = try await expiredSession(service)
        fake.script(.reply(.json(401, #"{"detail":"Token is invalid","code":"token_not_valid"}"#)))
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .sessionEnded)
        #expect(fake.refreshCalls == 1)
        #expect(waits.withLock { $0 }.isEmpty)
    }

    @Test("attempts are bounded: three in all by default, then refreshFailed; the waits double")
    func attemptsAreBounded() async throws {
        let service = try makeService()
        _ = try await expiredSession(service)
        fake.script(.transport(.cannotConnect), .transport(.cannotConnect), .transport(.cannotConnect), .transport(.cannotConnect))
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(fake.refreshCalls == 3)
        #expect(waits.withLock { $0 } == [0.5, 1])
        #expect(try await service.isSignedIn())
    }

    @Test("Retry-After is honoured: the wait is at least what the server asked for")
    func retryAfterIsHonoured() async throws {
        let service = try makeService()
        _ = try await expiredSession(service)
        fake.script(.reply(.json(429, #"{"detail":"slow down"}"#, headers: ["Retry-After": "3"])))
        #expect(try await me(service).name == "kim")
        #expect(waits.withLock { $0 } == [3])
    }

    @Test("a Retry-After beyond the total time allowed is not waited for: refreshFailed at once")
    func retryAfterBeyondTheBudget() async throws {
        let service = try makeService()
        _ = try await expiredSession(service)
        fake.script(.reply(.json(503, #"{"detail":"down"}"#, headers: ["Retry-After": "60"])))
        let error = await #expect(throws: SessionError.self) { try await me(service) }
        #expect(error?.kind == .refreshFailed)
        #expect(fake.refreshCalls == 1)
        #expect(waits.withLock { $0 }.isEmpty)
    }

    @Test("the jitter takes at most its share off each wait, and never goes below Retry-After")
    func jitterIsBounded() {
        let failure = RefreshFailure(kind: .cannotConnect, delivery: .notDelivered)
        for unit in [0, 0.3, 0.999_999, 5, -1, .nan] {
            let policy = RefreshRetryPolicy(random: { unit })
            for attempt in 2...3 {
                let delay = policy.delay(beforeAttempt: attempt, after: failure, elapsed: 0)
                let backoff = 0.5 * pow(2, Double(attempt - 2))
                #expect(delay.map { $0 <= backoff && $0 >= backoff * 0.75 } == true, "\(unit), attempt \(attempt): \(String(describing: delay))")
            }
            let limited = RefreshFailure(kind: .httpStatus, statusCode: 429, retryAfter: 2, delivery: .notDelivered)
            #expect(policy.delay(beforeAttempt: 2, after: limited, elapsed: 0) == 2)
        }
        #expect(RefreshRetryPolicy().delay(beforeAttempt: 4, after: failure, elapsed: 0) == nil)
        #expect(RefreshRetryPolicy.never.delay(beforeAttempt: 2, after: failure, elapsed: 0) == nil)
        #expect(RefreshRetryPolicy(maximumAttempts: .max).delay(beforeAttempt: 11, after: failure, elapsed: 0) == nil)
    }

    @Test("a retry never happens after the last waiting caller was cancelled: its wait is cut short")
    func noRetryAfterCancellation() async throws {
        let asleep = Gate()
        let wakeCancelled = LockedValue(false)
        let service = try makeService(sleep: { _ in
            await asleep.open()
            do {
                // Long enough that only the cancellation ends it, however loaded the machine
                // (at 300 ms it sometimes ran out first under load 12).
                try await Task.sleep(for: .seconds(30))
            } catch {
                wakeCancelled.withLock { $0 = true }
                throw error
            }
        })
        _ = try await expiredSession(service)
        fake.script(.transport(.cannotConnect))
        let call = Task { try await me(service) }
        await asleep.wait()
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        // The refresh was cancelled in its wait: no second attempt, now or later.
        try await Task.sleep(for: .milliseconds(600))
        #expect(wakeCancelled.withLock { $0 })
        #expect(fake.refreshCalls == 1)
        #expect(!collector.events.contains { if case .serverAnswered(attempt: 2, _, _) = $0 { true } else { false } })
    }

    @Test("a caller that stops waiting does not stop the retry the other callers wait for")
    func remainingCallerKeepsTheRetry() async throws {
        let asleep = Gate()
        let wake = Gate()
        let service = try makeService(sleep: { _ in
            await asleep.open()
            await wake.wait()
        })
        _ = try await expiredSession(service)
        fake.script(.transport(.cannotConnect))
        let leaving = Task { try await me(service) }
        await asleep.wait()
        let staying = Task { try await me(service) }
        while !collector.events.contains(.joinedRefresh(.due)) { try await Task.sleep(for: .milliseconds(1)) }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        await wake.open()
        #expect(try await staying.value.name == "kim")
        #expect(fake.refreshCalls == 2)
    }

    @Test("the app's preset forgives a lost response (its server's grace period); the OAuth and JSON presets do not")
    func presets() {
        #expect(SessionService.Configuration.appAPI.refreshRetry.serverForgivesLostResponse)
        #expect(!SessionService.Configuration.oauth2(tokenEndpoint: "/token", clientID: "cli").refreshRetry.serverForgivesLostResponse)
        #expect(!SessionService.Configuration.json(ScriptedTokenServer.refresh).refreshRetry.serverForgivesLostResponse)
    }
}
