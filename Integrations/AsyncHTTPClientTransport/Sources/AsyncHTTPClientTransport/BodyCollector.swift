import AsyncHTTPClient
import Foundation
import NetworkService
import NIOCore
import NIOHTTP1

/// Collects the final response's head and body for ``AsyncHTTPClientTransport``, and
/// enforces what the transport promises:
/// - a redirect that ``NetworkService/RedirectPolicy`` refuses (a credential on its way to
///   another origin) fails the request with the policy's `TransportError` (`.redirectRefused`)
///   before AsyncHTTPClient follows it;
/// - a body past `maximumBytes`, announced by `Content-Length` or received, fails it with a
///   `TransportError.responseTooLarge(limit:announcedLength:)`, and reading stops.
///
/// `@unchecked Sendable`: AsyncHTTPClient calls a delegate on its task's event loop only,
/// one call at a time, so its state is never touched from two threads at once.
final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (HTTPResponseHead, ByteBuffer?)

    /// The request as the transport was given it: what ``NetworkService/RedirectPolicy`` judges.
    private let request: HTTPRequest
    private let maximumBytes: Int
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?

    init(request: HTTPRequest, maximumBytes: Int) {
        self.request = request
        self.maximumBytes = maximumBytes
    }

    /// Every response head, redirects included, before AsyncHTTPClient acts on it: a redirect
    /// the policy refuses fails the task here, on its event loop, so AsyncHTTPClient sees a
    /// failed request instead of following it.
    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        guard let target = Self.redirectTarget(of: head, from: request.url),
              let refusal = RedirectPolicy.refusal(of: self.request, redirectedTo: target) else { return }
        task.fail(reason: refusal)
    }

    /// Where AsyncHTTPClient would follow `head` to: the statuses it follows, with a
    /// `Location` resolved against the URL that answered.
    static func redirectTarget(of head: HTTPResponseHead, from url: URL) -> URL? {
        switch head.status {
        case .movedPermanently, .found, .seeOther, .notModified, .useProxy, .temporaryRedirect, .permanentRedirect:
            break
        default:
            return nil
        }
        guard let location = head.headers.first(name: "Location") else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        if head.status != .notModified, let text = head.headers.first(name: "content-length"),
           let announced = Self.length(text), announced > maximumBytes {
            return task.eventLoop.makeFailedFuture(TransportError.responseTooLarge(limit: maximumBytes, announcedLength: announced))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// A `Content-Length` value as a number; one with more digits than an `Int` holds is
    /// `Int.max` (larger than any limit), one that is not digits `nil`.
    ///
    /// Spaces and tabs around it (HTTP's optional whitespace) are ignored. Read from the UTF-8
    /// bytes: it runs on every response, and Foundation's `trimmingCharacters(in:)` cost about
    /// 6 µs of the call's ~240 µs of client CPU (perf, `app-bench per-call`).
    static func length(_ text: String) -> Int? {
        let bytes = text.utf8
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
        let digits = bytes[first...last]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(Substring(digits)) ?? .max
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard buffer.readableBytes <= maximumBytes - (body?.readableBytes ?? 0) else {
            return task.eventLoop.makeFailedFuture(TransportError.responseTooLarge(limit: maximumBytes))
        }
        if body == nil {
            body = buffer
        } else {
            var buffer = buffer
            body!.writeBuffer(&buffer)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body)
    }
}
