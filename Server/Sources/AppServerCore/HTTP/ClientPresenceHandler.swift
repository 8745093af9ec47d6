import NIOConcurrencyHelpers
import NIOCore

/// Notes when the client of a connection has gone: its side of the stream ended (a process that
/// was killed, whose kernel closed the socket) or the connection closed.
///
/// Hummingbird allows half-closed connections, so a client that has gone leaves the channel
/// active until the response is written: `Channel.isActive` cannot tell. This handler, first in
/// the pipeline, sees the end of the stream while a request is still being handled, and a route
/// asks it through ``hasLeft(_:)`` (the refresh route, so that a held request of a client that
/// is gone never reaches the token logic). A client that only half-closes its side after
/// sending (rare for HTTP clients) counts as gone too: the route closes the connection, and
/// that client sees a dropped connection it may retry, never a rotation it cannot receive.
final class ClientPresenceHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// Set once the client's side ended; read from any thread.
    let gone = NIOLockedValueBox(false)

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            gone.withLockedValue { $0 = true }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone.withLockedValue { $0 = true }
        context.fireChannelInactive()
    }

    /// Whether the client of `channel` has gone. A channel without this handler (the in-process
    /// test router's) is taken as present.
    static func hasLeft(_ channel: any Channel) async -> @Sendable () -> Bool {
        let gone = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ClientPresenceHandler.self).gone
        }.get()
        guard let gone else { return { false } }
        return { gone.withLockedValue { $0 } }
    }
}
