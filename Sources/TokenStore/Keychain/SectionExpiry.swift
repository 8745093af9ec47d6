/// Whether the system said time is up for the ``KeychainTokenStore/BackgroundActivity`` of one
/// section, and a wait for that moment.
final class SectionExpiry: Sendable {
    private struct State {
        var expired = false
        var stopped = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// Whether time is up.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Time is up: wakes the waiter.
    func expire() {
        state.withLock { state in
            state.expired = true
            return state.waiter.take()
        }?.resume()
    }

    /// Returns when time is up, or when the waiting task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.expired || state.stopped { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                state.stopped = true
                return state.waiter.take()
            }?.resume()
        }
    }
}
