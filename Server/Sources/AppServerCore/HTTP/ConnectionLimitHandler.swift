import NIOConcurrencyHelpers
import NIOCore

/// Closes a new connection at once when `limit` connections are already open, so that idle
/// or half-open connections cannot use up the process's file descriptors and starve normal
/// requests (with the idle timeout, they are also closed after a while).
///
/// One handler joins each connection's pipeline (`HTTP1Channel.Configuration.additionalChannelHandlers`);
/// they share one ``Counter``. A connection counts from when its handler is added until the
/// handler is removed as the connection closes.
///
/// (Hummingbird's `MaximumAvailableConnections` stops reading from the listening socket instead;
/// with the server's async channel pipeline it did not hold new connections back in a test,
/// so the server counts connections itself.)
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The number of open connections, shared by every connection's handler.
    final class Counter: Sendable {
        let limit: Int
        private let open = NIOLockedValueBox(0)

        init(limit: Int) { self.limit = limit }

        /// Counts a new connection; `false` (and nothing counted) when the limit is reached.
        func admit() -> Bool {
            open.withLockedValue { count in
                guard count < limit else { return false }
                count += 1
                return true
            }
        }

        func release() { open.withLockedValue { $0 -= 1 } }

        var current: Int { open.withLockedValue { $0 } }
    }

    private let counter: Counter
    private var counted = false

    init(counter: Counter) {
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = counter.admit()
        if !counted { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted {
            counted = false
            counter.release()
        }
    }
}
