import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel with a ``ClientPresenceHandler`` and a
/// ``RequestDeadlineHandler`` in front of it: the
/// deadline must see the raw bytes, before the HTTP decoder that
/// `HTTP1Channel.Configuration.additionalChannelHandlers` come after.
struct AppHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    /// How long a request may take to arrive completely, from its first byte.
    let requestTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Called on the channel's event loop, with an empty pipeline: this handler comes first.
        do {
            try channel.pipeline.syncOperations.addHandler(ClientPresenceHandler())
            try channel.pipeline.syncOperations.addHandler(RequestDeadlineHandler(timeout: requestTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
