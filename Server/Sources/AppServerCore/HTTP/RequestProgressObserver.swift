import NIOCore
import NIOHTTPTypes

/// Tells the connection's ``RequestDeadlineHandler`` (before the HTTP decoder) where the decoded
/// requests and the responses stand: a head received, a request received to its end, a response
/// sent to its end. Passes every part on unchanged.
final class RequestProgressObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var deadline: RequestDeadlineHandler?

    init() {}

    func handlerAdded(context: ChannelHandlerContext) {
        // Added by AppHTTPChannel before the HTTP handlers; missing only in a pipeline built without it.
        deadline = try? context.pipeline.syncOperations.handler(type: RequestDeadlineHandler.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadline?.headReceived()
        case .body: break
        case .end: deadline?.requestReceived()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { deadline?.responseSent() }
        context.write(data, promise: promise)
    }
}
