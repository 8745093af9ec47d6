import NIOConcurrencyHelpers
import NIOCore

/// Closes a new connection at once when `limit` connections are already open, or when its client
/// address already holds `perAddressLimit` of them, so that idle or half-open connections cannot
/// use up the process's file descriptors and starve normal requests (with the idle timeout and
/// the request deadline, they are also closed after a while), and one client cannot take every
/// slot: other addresses keep being served while it trickles bytes over its connections.
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

    /// The open connections, in all and per client address, shared by every connection's handler.
    final class Counter: Sendable {
        let limit: Int
        let perAddressLimit: Int
        /// The total, and the count of every address with at least one open connection (so the
        /// dictionary never holds more than `limit` entries).
        private let open = NIOLockedValueBox((total: 0, byAddress: [String: Int]()))

        init(limit: Int, perAddressLimit: Int) {
            self.limit = limit
            self.perAddressLimit = perAddressLimit
        }

        /// Counts a new connection from `address`; `false` (and nothing counted) when the limit or
        /// the address's limit is reached.
        func admit(address: String) -> Bool {
            open.withLockedValue { open in
                let fromAddress = open.byAddress[address, default: 0]
                guard open.total < limit, fromAddress < perAddressLimit else { return false }
                open.total += 1
                open.byAddress[address] = fromAddress + 1
                return true
            }
        }

        /// Uncounts a connection that ``admit(address:)`` counted.
        func release(address: String) {
            open.withLockedValue { open in
                open.total -= 1
                let remaining = open.byAddress[address, default: 1] - 1
                open.byAddress[address] = remaining > 0 ? remaining : nil
            }
        }

        /// The number of open connections.
        var current: Int { open.withLockedValue { $0.total } }
    }

    private let counter: Counter
    /// The client address this connection was counted under; `nil` when it was not counted.
    private var countedAddress: String?

    init(counter: Counter) {
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // An accepted socket knows its peer from the start; the fallback key groups the rest.
        let address = ClientAddress.key(context.channel.remoteAddress)
        if counter.admit(address: address) {
            countedAddress = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let address = countedAddress {
            countedAddress = nil
            counter.release(address: address)
        }
    }
}
