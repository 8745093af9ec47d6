import Dispatch
import Foundation

/// Something ``DeadlineTimer`` ends when its deadline passes.
protocol DeadlineExpiring: AnyObject, Sendable {
    /// The deadline passed. Called on the timer's queue, outside its lock.
    func deadlinePassed()
}

/// Ends requests at their deadlines with one timer for the whole process, instead of a
/// timer per request.
///
/// A Dispatch timer per request costs an arm and a cancel of a timer on Dispatch's manager
/// thread, each a write to its event file and a wake-up: measured with `app-bench per-call`,
/// 5–8 % of a whole call's client CPU over loopback. Here a request only adds an entry and
/// removes it under a lock; the one timer is set again only when a new deadline comes before
/// the one it waits for (the first request after a quiet spell, or a shorter timeout). When
/// it fires, it ends every request whose deadline has passed and waits for the earliest of
/// the rest.
///
/// `@unchecked Sendable`: `entries`, `nextID` and `armed` are read and written under `lock`
/// only, and the timer is set under it too, so two requests cannot set it out of order; the
/// rest is immutable.
final class DeadlineTimer: @unchecked Sendable {
    /// The timer every ``URLSessionTransport`` shares.
    static let shared = DeadlineTimer()

    private struct Entry {
        let deadline: DispatchTime
        let target: any DeadlineExpiring
    }

    private let lock = NSLock()
    private let timer: any DispatchSourceTimer
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    /// When the timer fires next; `nil` when it waits for nothing.
    private var armed: DispatchTime?

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "NetworkService.DeadlineTimer"))
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Calls `target`'s ``DeadlineExpiring/deadlinePassed()`` at `deadline` unless
    /// ``remove(_:)`` comes first; keeps `target` until one of the two. Returns the entry's
    /// identifier, for ``remove(_:)``.
    func add(_ target: any DeadlineExpiring, at deadline: DispatchTime) -> UInt64 {
        lock.withLock {
            nextID += 1
            entries[nextID] = Entry(deadline: deadline, target: target)
            if armed.map({ deadline < $0 }) ?? true {
                armed = deadline
                timer.schedule(deadline: deadline)
            }
            return nextID
        }
    }

    /// Forgets the entry `id`; nothing happens if it already fired or was removed.
    func remove(_ id: UInt64) {
        _ = lock.withLock { entries.removeValue(forKey: id) }
    }

    /// How many entries wait (for tests).
    var count: Int { lock.withLock { entries.count } }

    private func fire() {
        let now = DispatchTime.now()
        let due: [any DeadlineExpiring] = lock.withLock {
            var due: [UInt64] = []
            var next: DispatchTime?
            for (id, entry) in entries {
                if entry.deadline <= now {
                    due.append(id)
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            armed = next
            if let next { timer.schedule(deadline: next) }
            return due.compactMap { entries.removeValue(forKey: $0)?.target }
        }
        for target in due { target.deadlinePassed() }
    }
}
