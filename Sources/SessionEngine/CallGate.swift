import Foundation
import TokenStore

/// Lets at most ``CallLimit/maximumCalls`` calls through at once; the others wait in order of
/// arrival, holding no token, for at most ``CallLimit/maximumWait``.
///
/// Waiters are kept in a FIFO of ids (a head index, compacted as it advances, so a burst of
/// 50,000 costs O(1) per call) and a table of continuations; a cancelled waiter leaves the
/// table and its id is skipped. One watchdog task at a time sleeps until the oldest waiter's
/// deadline and fails those whose deadline passed: no timer per waiter.
final class CallGate: Sendable {
    struct Waiter {
        let continuation: CheckedContinuation<Void, any Error>
        let deadline: Date
    }

    struct State {
        var running = 0
        var order: [Int] = []
        var head = 0
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var watchdogRunning = false
    }

    let limit: CallLimit
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let state = LockedValue(State())

    init(limit: CallLimit, now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (TimeInterval) async throws -> Void) {
        self.limit = limit
        self.now = now
        self.sleep = sleep
    }

    /// How many calls wait for their turn now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits for a turn. Every successful `enter()` must be followed by one ``leave()``.
    /// - Throws: ``SessionError/Kind/callLimitWaitExceeded`` after ``CallLimit/maximumWait``;
    ///   `CancellationError` when the calling task is cancelled while it waits.
    func enter() async throws {
        let id: Int? = state.withLock { state in
            if state.running < limit.maximumCalls, state.waiters.isEmpty {
                state.running += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case run, cancelled, wait(startWatchdog: Bool) }
                // Decided again with the queue under the same lock: a call that left since the
                // first look may have freed a slot with nobody queued to take it.
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancelled }
                    if state.running < limit.maximumCalls, state.waiters.isEmpty {
                        state.running += 1
                        return .run
                    }
                    state.order.append(id)
                    state.waiters[id] = Waiter(continuation: continuation, deadline: now().addingTimeInterval(limit.maximumWait))
                    let start = !state.watchdogRunning
                    state.watchdogRunning = true
                    return .wait(startWatchdog: start)
                }
                switch decision {
                case .run: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait(let startWatchdog): if startWatchdog { Task { await self.watch() } }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends a call: its turn passes to the longest-waiting call, if any.
    func leave() {
        let next = state.withLock { state -> Waiter? in
            while state.head < state.order.count {
                let id = state.order[state.head]
                state.head += 1
                if let waiter = state.waiters.removeValue(forKey: id) {
                    state.compact()
                    return waiter  // the turn passes on: `running` is unchanged
                }
            }
            state.compact()
            state.running -= 1
            return nil
        }
        next?.continuation.resume()
    }

    /// Sleeps until the oldest waiter's deadline and fails every waiter whose deadline has
    /// passed, until none waits.
    private func watch() async {
        while true {
            let (expired, oldest) = state.withLock { state -> ([Waiter], Date?) in
                let now = now()
                var expired: [Waiter] = []
                while state.head < state.order.count {
                    let id = state.order[state.head]
                    guard let waiter = state.waiters[id] else {
                        state.head += 1
                        continue
                    }
                    guard waiter.deadline <= now else { break }
                    state.waiters[id] = nil
                    state.head += 1
                    expired.append(waiter)
                }
                state.compact()
                let oldest = state.head < state.order.count ? state.waiters[state.order[state.head]]?.deadline : nil
                if oldest == nil { state.watchdogRunning = false }
                return (expired, oldest)
            }
            for waiter in expired {
                waiter.continuation.resume(throwing: SessionError(.callLimitWaitExceeded, detail: Self.detail(limit)))
            }
            guard let oldest else { return }
            try? await sleep(max(oldest.timeIntervalSince(now()), 0.001))
        }
    }

    /// What a call that waited too long is told: the limit and where to change it.
    static func detail(_ limit: CallLimit) -> String {
        let seconds = limit.maximumWait.rounded() == limit.maximumWait ? String(Int(limit.maximumWait)) : String(limit.maximumWait)
        return "waited \(seconds) s for one of the \(limit.maximumCalls) calls that may run at once (Configuration.callLimit)"
    }
}

extension CallGate.State {
    /// Drops the ids already taken from the front of the queue once they are most of it.
    mutating func compact() {
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        } else if head == order.count {
            order.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
