import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Gives the `400 Bad Request` that Hummingbird writes for a request NIO's HTTP/1 parser refuses
/// (an unknown method such as `FOO`, a request line or header block over the decoder's limits,
/// too many headers, bytes that are not HTTP) the contract's JSON error body.
///
/// Those requests never reach the router: Hummingbird's connection loop catches the
/// `HTTPParserError` and writes `400` with `Content-Length: 0` and `Connection: close` itself.
/// This handler sits in the channel pipeline between the HTTP codec and Hummingbird (added with
/// `HTTP1Channel.Configuration.additionalChannelHandlers`): it notes the parser error as it passes
/// inbound, and replaces that empty response with `{"error":{"code":"invalid_request",...}}`.
final class ParseErrorBodyHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var parserError: HTTPParserError?
    private var replacingResponse = false

    init() {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parserError = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(let head) where parserError != nil && head.status == .badRequest && head.headerFields[.contentLength] == "0":
            let body = Self.body(for: parserError!)
            var fields = head.headerFields
            fields[.contentType] = "application/json; charset=utf-8"
            fields[.contentLength] = String(body.readableBytes)
            var newHead = head
            newHead.headerFields = fields
            replacingResponse = true
            context.write(wrapOutboundOut(.head(newHead)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: promise)
        case .body where replacingResponse:
            promise?.succeed()
        case .end where replacingResponse:
            replacingResponse = false
            parserError = nil
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// The error body; the message says what was wrong without echoing the request.
    static func body(for error: HTTPParserError) -> ByteBuffer {
        let message: String
        switch error {
        case .invalidMethod: message = "method: not an HTTP method the server knows"
        case .headerOverflow: message = "headers: the request line and headers are too large or too many"
        case .invalidURL: message = "path: not a valid request target"
        case .invalidVersion: message = "request: not HTTP/1.x"
        case .invalidContentLength, .unexpectedContentLength: message = "headers: invalid Content-Length"
        default: message = "request: not a valid HTTP/1.1 request"
        }
        return ByteBuffer(string: #"{"error":{"code":"invalid_request","message":"\#(message)"}}"#)
    }
}
