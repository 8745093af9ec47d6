import Foundation
@testable import SessionEngine
import Testing
import TokenStore

/// The refresh phase's decisions as one table: each row is a phase, an event, the phase after
/// it and what the caller must do. No store, clock or server: the refreshes are placeholder
/// tasks that do nothing. Refresh 1 is the one in flight in every row that has one; a caller
/// that starts a refresh starts refresh 2.
@Suite("The refresh phase: every event in every phase, as a decision table")
struct RefreshPhaseTests {
    /// Refresh 1's task, in flight in the rows that have a refresh.
    static let first = RefreshPhase.RefreshTask { throw CancellationError() }
    /// The task a caller that starts a refresh makes (refresh 2).
    static let second = RefreshPhase.RefreshTask { throw CancellationError() }

    /// Refresh 1 running, with `waiters` callers waiting for it.
    static func running(_ waiters: Int) -> RefreshPhase { .running(.init(id: 1, task: first, waiters: waiters)) }
    /// Refresh 1 sleeping before a retry, with `waiters` callers waiting for it.
    static func waiting(_ waiters: Int) -> RefreshPhase { .waitingToRetry(.init(id: 1, task: first, waiters: waiters)) }
    /// Refresh 2, just started by a caller.
    static let secondStarted = RefreshPhase.running(.init(id: 2, task: second, waiters: 1))

    /// An event; the ids name refresh 1 (the one in flight) or refresh 2 (any other).
    enum Event: Sendable, Hashable, CustomStringConvertible {
        case callerNeedsRefresh
        case waiterLeft(Int)
        case retryWanted(Int)
        case retryWaitEnded(Int)
        case refreshFinished(Int)
        case newGeneration

        static let all: [Event] = [.callerNeedsRefresh, .newGeneration]
            + [1, 2].flatMap { [.waiterLeft($0), .retryWanted($0), .retryWaitEnded($0), .refreshFinished($0)] }

        var description: String {
            switch self {
            case .callerNeedsRefresh: "a caller needs a refresh"
            case let .waiterLeft(id): "a caller of refresh \(id) stops waiting"
            case let .retryWanted(id): "refresh \(id) wants to retry"
            case let .retryWaitEnded(id): "refresh \(id) slept before its retry"
            case let .refreshFinished(id): "refresh \(id) finished"
            case .newGeneration: "a sign-in or sign-out begins"
            }
        }
    }

    /// What the caller must do: each event's own action, or nothing.
    enum Action: Sendable, Equatable {
        case join(RefreshPhase.JoinAction)
        case leave(RefreshPhase.LeaveAction)
        case retry(RefreshPhase.RetryAction)
        case cancel(RefreshPhase.RefreshTask?)
        case nothing
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let phase: RefreshPhase
        let event: Event
        let next: RefreshPhase
        let action: Action

        var testDescription: String { "\(Self.name(phase)), \(event) → \(Self.name(next))" }

        static func name(_ phase: RefreshPhase) -> String {
            switch phase {
            case .idle: "idle"
            case let .running(refresh): "refresh \(refresh.id) running (\(refresh.waiters) waiting)"
            case let .waitingToRetry(refresh): "refresh \(refresh.id) waiting to retry (\(refresh.waiters) waiting)"
            }
        }
    }

    /// The phases the table starts from: each one a refresh can be in (a refresh waiting to
    /// retry always has a caller waiting; see `noEventSequenceBreaksTheInvariants`).
    static let phases: [RefreshPhase] = [.idle, running(1), running(2), running(0), waiting(1), waiting(2)]

    static let table: [Row] = [
        // idle: a caller starts refresh 2; nothing else has anything to act on.
        Row(phase: .idle, event: .callerNeedsRefresh, next: secondStarted, action: .join(.started(id: 2, task: second))),
        Row(phase: .idle, event: .waiterLeft(1), next: .idle, action: .leave(.none)),
        Row(phase: .idle, event: .waiterLeft(2), next: .idle, action: .leave(.none)),
        Row(phase: .idle, event: .retryWanted(1), next: .idle, action: .retry(.giveUp)),
        Row(phase: .idle, event: .retryWanted(2), next: .idle, action: .retry(.giveUp)),
        Row(phase: .idle, event: .retryWaitEnded(1), next: .idle, action: .retry(.giveUp)),
        Row(phase: .idle, event: .retryWaitEnded(2), next: .idle, action: .retry(.giveUp)),
        Row(phase: .idle, event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: .idle, event: .refreshFinished(2), next: .idle, action: .nothing),
        Row(phase: .idle, event: .newGeneration, next: .idle, action: .cancel(nil)),

        // Running, one caller waiting.
        Row(phase: running(1), event: .callerNeedsRefresh, next: running(2), action: .join(.joined(id: 1, task: first))),
        Row(phase: running(1), event: .waiterLeft(1), next: running(0), action: .leave(.none)),
        Row(phase: running(1), event: .waiterLeft(2), next: running(1), action: .leave(.none)),
        Row(phase: running(1), event: .retryWanted(1), next: waiting(1), action: .retry(.sleep)),
        Row(phase: running(1), event: .retryWanted(2), next: running(1), action: .retry(.giveUp)),
        Row(phase: running(1), event: .retryWaitEnded(1), next: running(1), action: .retry(.askAgain)),
        Row(phase: running(1), event: .retryWaitEnded(2), next: running(1), action: .retry(.giveUp)),
        Row(phase: running(1), event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: running(1), event: .refreshFinished(2), next: running(1), action: .nothing),
        Row(phase: running(1), event: .newGeneration, next: .idle, action: .cancel(first)),

        // Running, two callers waiting.
        Row(phase: running(2), event: .callerNeedsRefresh, next: running(3), action: .join(.joined(id: 1, task: first))),
        Row(phase: running(2), event: .waiterLeft(1), next: running(1), action: .leave(.none)),
        Row(phase: running(2), event: .waiterLeft(2), next: running(2), action: .leave(.none)),
        Row(phase: running(2), event: .retryWanted(1), next: waiting(2), action: .retry(.sleep)),
        Row(phase: running(2), event: .retryWanted(2), next: running(2), action: .retry(.giveUp)),
        Row(phase: running(2), event: .retryWaitEnded(1), next: running(2), action: .retry(.askAgain)),
        Row(phase: running(2), event: .retryWaitEnded(2), next: running(2), action: .retry(.giveUp)),
        Row(phase: running(2), event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: running(2), event: .refreshFinished(2), next: running(2), action: .nothing),
        Row(phase: running(2), event: .newGeneration, next: .idle, action: .cancel(first)),

        // Running after every caller stopped waiting: it goes on (it may be rotating), a new
        // caller joins it, and it does not retry for nobody.
        Row(phase: running(0), event: .callerNeedsRefresh, next: running(1), action: .join(.joined(id: 1, task: first))),
        Row(phase: running(0), event: .waiterLeft(1), next: running(0), action: .leave(.none)),
        Row(phase: running(0), event: .waiterLeft(2), next: running(0), action: .leave(.none)),
        Row(phase: running(0), event: .retryWanted(1), next: running(0), action: .retry(.giveUp)),
        Row(phase: running(0), event: .retryWanted(2), next: running(0), action: .retry(.giveUp)),
        Row(phase: running(0), event: .retryWaitEnded(1), next: running(0), action: .retry(.giveUp)),
        Row(phase: running(0), event: .retryWaitEnded(2), next: running(0), action: .retry(.giveUp)),
        Row(phase: running(0), event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: running(0), event: .refreshFinished(2), next: running(0), action: .nothing),
        Row(phase: running(0), event: .newGeneration, next: .idle, action: .cancel(first)),

        // Waiting to retry, one caller waiting: when it leaves, the refresh is cancelled and
        // the next caller starts another.
        Row(phase: waiting(1), event: .callerNeedsRefresh, next: waiting(2), action: .join(.joined(id: 1, task: first))),
        Row(phase: waiting(1), event: .waiterLeft(1), next: .idle, action: .leave(.cancel(first))),
        Row(phase: waiting(1), event: .waiterLeft(2), next: waiting(1), action: .leave(.none)),
        Row(phase: waiting(1), event: .retryWanted(1), next: waiting(1), action: .retry(.sleep)),
        Row(phase: waiting(1), event: .retryWanted(2), next: waiting(1), action: .retry(.giveUp)),
        Row(phase: waiting(1), event: .retryWaitEnded(1), next: running(1), action: .retry(.askAgain)),
        Row(phase: waiting(1), event: .retryWaitEnded(2), next: waiting(1), action: .retry(.giveUp)),
        Row(phase: waiting(1), event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: waiting(1), event: .refreshFinished(2), next: waiting(1), action: .nothing),
        Row(phase: waiting(1), event: .newGeneration, next: .idle, action: .cancel(first)),

        // Waiting to retry, two callers waiting: one leaving changes only the count.
        Row(phase: waiting(2), event: .callerNeedsRefresh, next: waiting(3), action: .join(.joined(id: 1, task: first))),
        Row(phase: waiting(2), event: .waiterLeft(1), next: waiting(1), action: .leave(.none)),
        Row(phase: waiting(2), event: .waiterLeft(2), next: waiting(2), action: .leave(.none)),
        Row(phase: waiting(2), event: .retryWanted(1), next: waiting(2), action: .retry(.sleep)),
        Row(phase: waiting(2), event: .retryWanted(2), next: waiting(2), action: .retry(.giveUp)),
        Row(phase: waiting(2), event: .retryWaitEnded(1), next: running(2), action: .retry(.askAgain)),
        Row(phase: waiting(2), event: .retryWaitEnded(2), next: waiting(2), action: .retry(.giveUp)),
        Row(phase: waiting(2), event: .refreshFinished(1), next: .idle, action: .nothing),
        Row(phase: waiting(2), event: .refreshFinished(2), next: waiting(2), action: .nothing),
        Row(phase: waiting(2), event: .newGeneration, next: .idle, action: .cancel(first)),
    ]

    /// Applies `event` to `phase`; a caller that starts a refresh starts refresh 2.
    static func apply(_ event: Event, to phase: inout RefreshPhase) -> Action {
        switch event {
        case .callerNeedsRefresh: .join(phase.callerNeedsRefresh(newID: 2) { _ in second })
        case let .waiterLeft(id): .leave(phase.waiterLeft(id))
        case let .retryWanted(id): .retry(phase.retryWanted(id))
        case let .retryWaitEnded(id): .retry(phase.retryWaitEnded(id))
        case let .refreshFinished(id): { phase.refreshFinished(id); return .nothing }()
        case .newGeneration: .cancel(phase.newGeneration())
        }
    }

    @Test("each row: the phase after the event, and the action the caller carries out", arguments: table)
    func decision(_ row: Row) {
        var phase = row.phase
        let action = Self.apply(row.event, to: &phase)
        #expect(phase == row.next)
        #expect(action == row.action)
    }

    @Test("the table has exactly one row for every event in every phase")
    func tableCoversEveryTransition() {
        for phase in Self.phases {
            for event in Event.all {
                let rows = Self.table.filter { $0.phase == phase && $0.event == event }
                #expect(rows.count == 1, "\(Row.name(phase)), \(event): \(rows.count) rows")
            }
        }
        #expect(Self.table.count == Self.phases.count * Event.all.count)
    }

    @Test("no sequence of events, from idle, leaves a refresh waiting to retry for nobody, counts waiters below zero, or swaps the refresh callers join")
    func noEventSequenceBreaksTheInvariants() {
        // Every phase reachable from idle by any event of refreshes 1 to 3, each new refresh
        // getting the next id (as SessionState gives them), up to 3 waiters.
        typealias Node = (phase: RefreshPhase, lastID: Int)
        var seen: [Node] = [(.idle, 0)]
        var frontier = seen
        while let (phase, lastID) = frontier.popLast() {
            var events: [(inout RefreshPhase) -> Void] = [
                { _ = $0.callerNeedsRefresh(newID: lastID + 1) { _ in Self.second } },
                { _ = $0.newGeneration() },
            ]
            for id in 1...3 {
                events += [{ _ = $0.waiterLeft(id) }, { _ = $0.retryWanted(id) }, { _ = $0.retryWaitEnded(id) }, { $0.refreshFinished(id) }]
            }
            for event in events {
                var next = phase
                event(&next)
                let nextLastID = max(lastID, next.inFlight?.id ?? 0)
                if case let .waitingToRetry(refresh) = next { #expect(refresh.waiters > 0, "\(Row.name(next))") }
                #expect((next.inFlight?.waiters ?? 0) >= 0, "\(Row.name(next))")
                if let refresh = next.inFlight { #expect(refresh.id == nextLastID, "only the last refresh started is ever in flight") }
                if let before = phase.inFlight, let after = next.inFlight, before.id == after.id {
                    #expect(before.task == after.task)
                }
                guard (next.inFlight?.waiters ?? 0) <= 3, nextLastID <= 3,
                      !seen.contains(where: { $0.phase == next && $0.lastID == nextLastID }) else { continue }
                seen.append((next, nextLastID))
                frontier.append((next, nextLastID))
            }
        }
        // Idle after 0 to 3 refreshes; refresh 1, 2 or 3 running with 0 to 3 callers waiting,
        // or waiting to retry with 1 to 3.
        #expect(seen.count == 4 + 3 * 4 + 3 * 3)
    }
}
