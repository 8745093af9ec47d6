import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Synchronization
import TokenStore
#if canImport(Glibc)
import Glibc
#endif

/// One process's part of `app-bench waits`: rounds of `tasks` concurrent calls fired at
/// agreed moments (seconds since 1970, the same in every process) when the shared token has
/// expired, each call timed from its start until its handler holds a token.
///
/// Who waited is told by the engine's records (``SessionObserver``): a caller that joined a
/// refresh in flight waited in its process; one that started a refresh and found newer tokens
/// in the store waited for another process's refresh (in the store's exclusive section); one
/// whose refresh asked the server is the refresher, not a waiter. A caller that found the
/// token fresh (it came late) made no refresh and is not counted.
///
/// The last two rounds (when `slowRefresh` is given) have their refresh delayed at the server,
/// by `slowRefresh` seconds and then by three times as long: a waiting process's context
/// switches (`getrusage`: every thread) from the round's start until its first caller holds a
/// token, in the short wait and in the long one, show whether a waiter polls (a poller's
/// switches grow with the wait; those of a waiter that blocks do not, beyond a sleeping
/// process's, measured over a second just before).
struct WaitProbe: Sendable {
    var tasks: Int
    /// The first round's moment, in seconds since 1970, and the time between rounds.
    var start: Double
    var period: Double
    /// Rounds in all: the first one warms connections up and is not counted.
    var rounds: Int
    /// Seconds the last round's refresh is delayed at the server (0: no such round).
    var slowRefresh: Double
    /// Whether this process asks the server to delay the last round's refresh.
    var setsFault: Bool

    /// What a caller did in one round, from the engine's records on its task.
    final class Trace: Sendable {
        struct Flags: Sendable { var started = false, joined = false, foundNewer = false, askedServer = false }
        let flags = Mutex(Flags())

        func note(_ event: SessionRecord.Event) {
            flags.withLock { flags in
                switch event {
                case .refreshStarted: flags.started = true
                case .joinedRefresh: flags.joined = true
                case .storeHeldNewerTokens: flags.foundNewer = true
                case .serverAnswered: flags.askedServer = true
                default: break
                }
            }
        }
    }

    /// When the first caller of a process held a token in a round, and the process's context
    /// switches by then.
    final class FirstHold: Sendable {
        let value = Mutex<(seconds: Double, switches: Int)?>(nil)
    }

    /// The caller whose records the observer notes (task-local: the refresh task a caller
    /// starts inherits it).
    @TaskLocal static var trace: Trace?

    /// The observer to install on the service measured.
    static let observer = SessionObserver { record in trace?.note(record.event) }

    /// Runs the rounds on `service`; `testMode` sets the slow round's fault.
    func run(service: RepositoryService, testMode: TestModeClient) async throws -> WaitReport {
        var report = WaitReport()
        for round in 0..<rounds {
            // 0: the short slow round, 1: the long one; nil: a round counted.
            let slow: Int? = slowRefresh > 0 && round >= rounds - 2 ? round - (rounds - 2) : nil
            let isSlow = slow != nil
            let fireAt = start + Double(round) * period
            if let slow {
                if setsFault {
                    try await Self.sleep(until: fireAt - 1.5)
                    try await testMode.failNextRefreshes("hang", count: 1, seconds: slowRefresh * (slow == 0 ? 1 : 3))
                }
                try await Self.sleep(until: fireAt - 1.0)
                let (idleStart, switchesBefore) = (WallTime.now(), Self.contextSwitches())
                try await Self.sleep(until: fireAt)
                report.idleSeconds += WallTime.now() - idleStart
                report.idleSwitches += Self.contextSwitches() - switchesBefore
            } else {
                if WallTime.epoch() > fireAt { report.lateRounds += 1 }
                try await Self.sleep(until: fireAt)
            }
            let switchesBefore = Self.contextSwitches()
            let roundStart = WallTime.now()
            // When the first caller of this process held a token, and the switches by then:
            // the process's wait, without the requests that follow it.
            let firstHold = FirstHold()
            let results = await withTaskGroup(of: Result<(Double, Trace.Flags), any Error>.self) { group in
                for _ in 0..<tasks {
                    group.addTask {
                        let trace = Trace()
                        let started = WallTime.now()
                        let holds = Mutex(0.0)
                        do {
                            try await Self.$trace.withValue(trace) {
                                _ = try await service.request { server, token in
                                    let now = WallTime.now()
                                    holds.withLock { if $0 == 0 { $0 = now } }
                                    if firstHold.value.withLock({ $0 == nil }) {
                                        let switches = Self.contextSwitches()
                                        firstHold.value.withLock { if $0 == nil { $0 = (now - roundStart, switches - switchesBefore) } }
                                    }
                                    return try await MemberAPI.fetchMe(server: server, accessToken: token)
                                }
                            }
                        } catch {
                            return .failure(error)
                        }
                        return .success((holds.withLock { $0 } - started, trace.flags.withLock { $0 }))
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            var outcomes: [(Double, Trace.Flags)] = []
            for result in results {
                switch result {
                case .success(let outcome): outcomes.append(outcome)
                case .failure(let error):
                    report.failedCalls += 1
                    if report.failures.count < 3 { report.failures.append("round \(round): \(error)") }
                }
            }
            guard round > 0 else { continue }   // the warm-up round
            // Joiners wait in their process when it refreshed; otherwise their process's
            // refresh waited for another process's, and so did they.
            let refresher = outcomes.contains { $0.1.started && $0.1.askedServer }
            if isSlow {
                let (seconds, switches) = firstHold.value.withLock { $0 } ?? (0, 0)
                report.slowRounds.append(.init(seconds: seconds, switches: switches, refresher: refresher))
                continue
            }
            for (seconds, flags) in outcomes {
                if flags.started && flags.askedServer {
                    report.refreshSeconds.append(seconds)
                } else if flags.joined || (flags.started && flags.foundNewer) {
                    if refresher { report.waitsInProcess.append(seconds) } else { report.waitsAcrossProcesses.append(seconds) }
                }
            }
        }
        return report
    }

    /// Context switches of every thread of this process so far (voluntary and involuntary).
    static func contextSwitches() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_nvcsw + usage.ru_nivcsw)
    }

    static func sleep(until epoch: Double) async throws {
        let seconds = epoch - WallTime.epoch()
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}

/// What one process measured in `app-bench waits`, in seconds.
struct WaitReport: Codable, Sendable {
    /// Callers that joined the refresh their process made.
    var waitsInProcess: [Double] = []
    /// Callers of a process that found the tokens another process had rotated (its refresh's
    /// starter, and the callers that joined it).
    var waitsAcrossProcesses: [Double] = []
    /// The callers that refreshed: from their call until they held the new token.
    var refreshSeconds: [Double] = []
    /// Rounds this process joined after their moment (started too late).
    var lateRounds = 0
    /// Calls that failed, and the first few failures described (errors never hold a token).
    var failedCalls = 0
    var failures: [String] = []
    /// A slow round: from its start until the first caller of this process held a token, the
    /// process's context switches meanwhile, and whether this process refreshed.
    struct SlowRound: Codable, Sendable {
        var seconds = 0.0
        var switches = 0
        var refresher = false
    }
    /// The short slow round, then the long one.
    var slowRounds: [SlowRound] = []
    /// A second of sleep just before each slow round, and the context switches in them.
    var idleSeconds = 0.0
    var idleSwitches = 0
}
