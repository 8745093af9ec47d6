import Dispatch
import Foundation
@testable import NetworkService
import Testing

/// `DeadlineTimer` is the one timer behind every `URLSessionTransport` request's deadline
/// (issue #24: a Dispatch timer per request cost 5–8 % of a call). Each test uses a timer of
/// its own, so the transport's requests running beside it do not count.
@Suite("One deadline timer for every request")
struct DeadlineTimerTests {
    /// Records when each of its targets heard its deadline pass.
    final class Recorder: Sendable {
        let fired = TestMutex<[String: DispatchTime]>([:])

        func target(_ name: String) -> Target { Target(name: name, recorder: self) }

        func firedNames() -> Set<String> { Set(fired.withLock { $0.keys }) }

        /// Waits up to `seconds` for every one of `names` to have fired.
        func waitFor(_ names: Set<String>, seconds: Double = 5) async throws {
            let end = Date().addingTimeInterval(seconds)
            while !names.isSubset(of: firedNames()), Date() < end {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    final class Target: DeadlineExpiring {
        let name: String
        let recorder: Recorder
        init(name: String, recorder: Recorder) { self.name = name; self.recorder = recorder }
        func deadlinePassed() {
            let now = DispatchTime.now()
            recorder.fired.withLock { $0[name] = now }
        }
    }

    @Test("an entry hears its deadline pass once it has passed, and is then forgotten")
    func entryFiresAtItsDeadline() async throws {
        let timer = DeadlineTimer(), recorder = Recorder()
        let deadline = DispatchTime.now() + .milliseconds(100)
        _ = timer.add(recorder.target("a"), at: deadline)
        try await recorder.waitFor(["a"])
        let fired = try #require(recorder.fired.withLock { $0["a"] })
        #expect(fired >= deadline)
        #expect(timer.count == 0)
    }

    @Test("a removed entry never fires and is not kept")
    func removedEntryNeverFires() async throws {
        let timer = DeadlineTimer(), recorder = Recorder()
        let start = DispatchTime.now()
        // Removed long before its deadline, however slowly this runs.
        let removed = timer.add(recorder.target("removed"), at: start + .milliseconds(400))
        _ = timer.add(recorder.target("kept"), at: start + .milliseconds(150))
        timer.remove(removed)
        #expect(timer.count == 1)
        try await recorder.waitFor(["kept"])
        // Past the removed entry's deadline.
        while DispatchTime.now() < start + .milliseconds(600) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(recorder.firedNames() == ["kept"])
        #expect(timer.count == 0)
    }

    @Test("a deadline earlier than the one the timer waits for fires on time, and the later one still fires")
    func earlierDeadlineSetsTheTimerAgain() async throws {
        let timer = DeadlineTimer(), recorder = Recorder()
        let start = DispatchTime.now()
        _ = timer.add(recorder.target("late"), at: start + .seconds(2))
        _ = timer.add(recorder.target("early"), at: start + .milliseconds(50))
        try await recorder.waitFor(["early", "late"])
        // Heard long before the later deadline: the timer was set again for the earlier one.
        let early = try #require(recorder.fired.withLock { $0["early"] })
        #expect(early.uptimeNanoseconds - start.uptimeNanoseconds < 1_500_000_000)
        let late = try #require(recorder.fired.withLock { $0["late"] })
        #expect(late >= start + .seconds(2))
        #expect(timer.count == 0)
    }

    @Test("many entries, some removed, some passed already: each left fires once, none removed does")
    func manyEntries() async throws {
        let timer = DeadlineTimer(), recorder = Recorder()
        let start = DispatchTime.now()
        // Spread over -20 to 780 ms: some passed already when added.
        let offsets = (0..<200).map { ($0 * 37) % 400 * 2 - 20 }
        var ids: [String: UInt64] = [:]
        for (index, offset) in offsets.enumerated() {
            ids["\(index)"] = timer.add(recorder.target("\(index)"), at: start + .milliseconds(offset))
        }
        // Removed while their deadline is still far (one already due may fire before its removal).
        let removed = Set(offsets.indices.filter { $0 % 3 == 0 && offsets[$0] >= 500 }.map(String.init))
        for name in removed { timer.remove(ids[name]!) }
        let kept = Set(ids.keys).subtracting(removed)
        try await recorder.waitFor(kept)
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.firedNames() == kept)
        #expect(timer.count == 0)
    }
}
