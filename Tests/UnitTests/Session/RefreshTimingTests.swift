import AppRepository
import AppSDKTesting
import Foundation
import SessionEngine
import Testing
import TokenStore

/// Refreshing ahead by a margin that fits the refresh's duration and the token's lifetime:
/// close to one refresh per lifetime, and no call presents an expired token.
@Suite("Tokens are refreshed close to their expiry, once per lifetime")
struct RefreshTimingTests {
    // MARK: The margin (pure arithmetic)

    @Test("the margin is three times the refresh's duration, at least a quarter second")
    func marginFollowsRefreshDuration() {
        let timing = RefreshTiming()
        #expect(timing.margin(lifetime: 900, refreshDuration: 0.02, leeway: 60) == 0.25)
        #expect(abs(timing.margin(lifetime: 900, refreshDuration: 0.3, leeway: 60) - 0.9) < 1e-9)
        #expect(abs(timing.margin(lifetime: 900, refreshDuration: nil, leeway: 60) - 0.75) < 1e-9)
    }

    @Test("the margin never exceeds a tenth of the lifetime nor the configured leeway")
    func marginIsCapped() {
        let timing = RefreshTiming()
        #expect(abs(timing.margin(lifetime: 3, refreshDuration: 2, leeway: 60) - 0.3) < 1e-9)
        #expect(timing.margin(lifetime: 3600, refreshDuration: 30, leeway: 60) == 60)
        #expect(timing.margin(lifetime: nil, refreshDuration: 30, leeway: 60) == 60)
        #expect(abs(timing.margin(lifetime: 0, refreshDuration: 0.1, leeway: 60) - 0.3) < 1e-9)
    }

    @Test("the refresh duration is smoothed, so one slow refresh moves the margin only part way")
    func durationIsSmoothed() throws {
        var duration: TimeInterval? = nil
        for _ in 0..<10 { duration = RefreshTiming.smoothedDuration(duration, adding: 0.02) }
        duration = RefreshTiming.smoothedDuration(duration, adding: 1.02)
        let value = try #require(duration)
        #expect(abs(value - 0.32) < 1e-9)
    }

    // MARK: Whole sessions on an injected clock

    /// One member calling the fake server every `lifetime / 50` seconds for 40 lifetimes; each
    /// request takes 20 ms to arrive. Returns refreshes, 401s and failed calls.
    private func simulate(lifetime: Int, duration lifetimes: Int = 40, latency: TimeInterval = 0.02) async throws
        -> (refreshes: Int, unauthorized: Int, failures: Int) {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        fake.state.withLock {
            $0.accessTokenLifetime = lifetime
            $0.enforcesExpiry = true
            $0.latency = latency
        }
        let service = fake.service(store: InMemoryTokenStore())
        try await service.signIn(email: "kim@example.com", password: "password1")
        let end = clock.now.addingTimeInterval(TimeInterval(lifetime * lifetimes))
        let step = TimeInterval(lifetime) / 50
        var failures = 0
        while clock.now < end {
            do { _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } } catch { failures += 1 }
            clock.advance(by: step)
        }
        return (fake.refreshRequests, fake.unauthorizedResponses, failures)
    }

    @Test("over 40 lifetimes of steady calls, refreshes stay within 1.15× the minimum, with no 401 and no failed call",
          arguments: [5, 60, 900])
    func refreshesNearTheMinimum(lifetime: Int) async throws {
        let run = try await simulate(lifetime: lifetime)
        let minimum = 40.0  // one refresh per lifetime (the sign-in issued the first token)
        let ratio = Double(run.refreshes) / minimum
        #expect(ratio <= 1.15, "\(run.refreshes) refreshes for \(lifetime)-second tokens (minimum \(minimum))")
        #expect(ratio >= 0.95, "\(run.refreshes) refreshes: tokens used past their expiry?")
        #expect(run.unauthorized == 0)
        #expect(run.failures == 0)
    }

    @Test("a slow server (one second per request) still sees no expired token, at the cost of earlier refreshes")
    func slowServer() async throws {
        let run = try await simulate(lifetime: 60, duration: 20, latency: 1)
        #expect(run.unauthorized == 0)
        #expect(run.failures == 0)
        #expect(Double(run.refreshes) / 20 <= 1.15, "\(run.refreshes) refreshes")
    }

    @Test("a 10-second token is used for nine tenths of its life and refreshed ahead within the last second")
    func shortLivedTokenRefreshedLate() async throws {
        let clock = TestClock()
        let fake = try FakeAppServer(clock: clock)
        fake.state.withLock { $0.accessTokenLifetime = 10; $0.enforcesExpiry = true }
        let service = fake.service(store: InMemoryTokenStore())
        try await service.signIn(email: "kim@example.com", password: "password1")
        clock.advance(by: 8.9)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 0)
        clock.advance(by: 0.6)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.refreshRequests == 1)
        #expect(fake.unauthorizedResponses == 0)
    }
}
