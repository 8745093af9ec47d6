import Foundation
import TokenStore

/// Hands each session event to every current subscriber's `AsyncStream`.
final class SessionEventBroadcaster: Sendable {
    private let subscribers = LockedValue<[UUID: AsyncStream<SessionEvent>.Continuation]>([:])

    /// A new stream that receives every event sent from now on, until it is dropped.
    func subscribe() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(100))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0[id] = nil }
        }
        return stream
    }

    func send(_ event: SessionEvent) {
        let continuations = subscribers.withLock { Array($0.values) }
        for continuation in continuations {
            continuation.yield(event)
        }
    }

    deinit {
        for continuation in subscribers.withLock({ Array($0.values) }) {
            continuation.finish()
        }
    }
}
