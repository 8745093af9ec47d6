import NIOCore

/// Closes a connection whose request is not completely received (request line, headers and
/// body) within `timeout` of its first byte, so that a client trickling a body byte by byte, or
/// its headers, cannot hold a connection forever: the idle timeout restarts at every piece of a
/// body, this deadline does not.
///
/// The handler sits first in the pipeline, before the HTTP decoder, where it sees the raw bytes:
/// the first byte of a request starts the clock. ``RequestProgressObserver``, after the decoder,
/// tells it when the request is complete (its `.end`), when a head arrives (a pipelined request
/// whose bytes came with the previous one) and when a response is complete. The deadline never
/// runs while the server answers a request it has fully read: a request that arrives before the
/// previous responses are sent gets its full time once they are. When it fires the connection is
/// closed without a response, like the idle timeout.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var context: ChannelHandlerContext?
    private var scheduled: Scheduled<Void>?
    /// A request has begun (bytes or a head received) and its `.end` has not been received.
    private var requestStarted = false
    /// Requests fully received whose response is not complete yet; negative while a response
    /// was sent before its request was read to the end (an early 401), so that request's
    /// `.end` brings it back to zero instead of leaving one phantom request unanswered.
    private var unanswered = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        scheduled?.cancel()
        scheduled = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !requestStarted {
            requestStarted = true
            update()
        }
        context.fireChannelRead(data)
    }

    /// A request head was decoded.
    func headReceived() {
        requestStarted = true
        update()
    }

    /// A request was received completely.
    func requestReceived() {
        requestStarted = false
        unanswered += 1
        update()
    }

    /// A response was sent completely (possibly before its request was read to the end).
    func responseSent() {
        unanswered -= 1
        update()
    }

    /// Runs the clock exactly while a request is being received and no earlier one awaits its response.
    private func update() {
        let shouldRun = requestStarted && unanswered <= 0
        if shouldRun, scheduled == nil, let context {
            scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                scheduled = nil
                context.close(promise: nil)
            }
        } else if !shouldRun, let running = scheduled {
            running.cancel()
            scheduled = nil
        }
    }
}
