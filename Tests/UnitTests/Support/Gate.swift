import Foundation

/// A one-shot gate: `wait()` suspends until `open()` is called (or returns at once after).
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrivals = 0

    func wait() async {
        arrivals += 1
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    /// Waits until `count` callers have reached `wait()`.
    func waitForArrivals(_ count: Int) async {
        while arrivals < count {
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
