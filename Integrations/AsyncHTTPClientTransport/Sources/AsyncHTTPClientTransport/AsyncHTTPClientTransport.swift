public import AsyncHTTPClient
public import Foundation
public import NetworkService
import NIOCore
import NIOHTTP1

/// An ``NetworkService/HTTPTransport`` over AsyncHTTPClient (SwiftNIO), for servers and
/// tools that already run SwiftNIO and want its connection pool instead of `URLSession`.
///
/// It behaves like `URLSessionTransport`: every HTTP response comes back whatever its
/// status; only a request that got no response throws, as a ``NetworkService/TransportError``
/// of the same kind `URLSessionTransport` would give (a timeout `.timedOut`, a refused
/// connection `.cannotConnect`, a connection closed mid-response `.connectionLost`, too many
/// redirects `.other`), whose `underlying` error is an ``AsyncHTTPClientFailure`` that
/// names no header. Cancelling the calling task cancels the request and throws
/// `CancellationError`.
///
/// It refuses and bounds what `URLSessionTransport` does, whatever the server sends:
/// - **Redirects.** A request that carries a credential (a secret header such as
///   `Authorization`, or a body) follows redirects within its own origin only; a redirect
///   to another scheme, host or port fails with `.redirectRefused` before anything is sent
///   there (``NetworkService/RedirectPolicy``; AsyncHTTPClient alone would drop the header
///   but send the body). This holds on any client, even one configured not to follow
///   redirects (such a redirect fails rather than coming back).
/// - **Response size.** A body larger than ``maximumResponseBytes`` fails with
///   `.responseTooLarge` (naming the limit): at the head when
///   `Content-Length` announces it, otherwise as soon as the bytes received pass it; reading stops.
/// - **Time.** ``timeout`` is the request's deadline: the whole exchange, redirects included.
///
/// Absurd settings are bounded rather than trusted (``NetworkService/TransportLimits``): a
/// timeout within a millisecond and a day, a negative size limit 0.
///
/// **Which client.** ``shared`` and ``init(timeout:maximumResponseBytes:)`` use one
/// process-wide `HTTPClient` that this type creates on first use and never shuts down (it
/// lives as long as the process, like `HTTPClient.shared`, and borrows the same event
/// loops). It is configured for the SDK (``sdkConfiguration``): a refused connection fails
/// at once instead of being retried until the deadline as `HTTPClient.shared` does.
/// ``init(client:timeout:maximumResponseBytes:)`` uses a client you own and shut down;
/// ``withOwnedClient(configuration:timeout:maximumResponseBytes:_:)`` and ``owningClient(configuration:timeout:maximumResponseBytes:)``
/// make a client of the transport's own, which ``shutdown()`` shuts down.
///
/// ```swift
/// import AsyncHTTPClientTransport
/// import NetworkService
///
/// let server = try Server(baseURL: "https://api.example.com",
///                         transport: AsyncHTTPClientTransport(timeout: 10))
/// ```
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// Seconds the whole exchange (connecting, sending, redirects, the response head and
    /// body) may take before it fails with `.timedOut`; within a millisecond and a day.
    public let timeout: TimeInterval
    /// The largest response body accepted, in bytes; a larger one fails with `.responseTooLarge`.
    public let maximumResponseBytes: Int
    /// Whether ``shutdown()`` shuts ``client`` down: true only for a client the transport made.
    public let ownsClient: Bool

    /// 30 seconds, as `URLSessionTransport.defaultTimeout`.
    public static let defaultTimeout: TimeInterval = TransportLimits.defaultTimeout
    /// 16 MiB, as `URLSessionTransport.defaultMaximumResponseBytes`
    /// (``NetworkService/TransportLimits/defaultMaximumResponseBytes`` says why).
    public static let defaultMaximumResponseBytes = TransportLimits.defaultMaximumResponseBytes

    /// A transport over the process-wide shared client with the default timeout. Nothing to
    /// shut down.
    ///
    /// ```swift
    /// let server = try Server(baseURL: "https://api.example.com", transport: AsyncHTTPClientTransport.shared)
    /// ```
    public static let shared = AsyncHTTPClientTransport()

    /// Creates a transport over the process-wide shared client (see the type's discussion).
    /// Every such transport, whatever its timeout, uses the one client; nothing to shut down.
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport(timeout: 5)
    /// transport.client === AsyncHTTPClientTransport.shared.client   // true
    /// ```
    public init(timeout: TimeInterval = Self.defaultTimeout, maximumResponseBytes: Int = Self.defaultMaximumResponseBytes) {
        self.init(client: Self.sharedClient, ownsClient: false, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// Creates a transport over `client`, which stays yours: ``shutdown()`` leaves it
    /// running, and you shut it down when you no longer need it.
    ///
    /// ```swift
    /// let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
    ///                         configuration: AsyncHTTPClientTransport.sdkConfiguration)
    /// let transport = AsyncHTTPClientTransport(client: client, timeout: 10)
    /// // ... use it ...
    /// try await client.shutdown()
    /// ```
    public init(client: HTTPClient, timeout: TimeInterval = Self.defaultTimeout,
                maximumResponseBytes: Int = Self.defaultMaximumResponseBytes) {
        self.init(client: client, ownsClient: false, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    init(client: HTTPClient, ownsClient: Bool, timeout: TimeInterval, maximumResponseBytes: Int) {
        self.client = client
        self.ownsClient = ownsClient
        self.timeout = TransportLimits.boundedTimeout(timeout)
        self.maximumResponseBytes = TransportLimits.boundedMaximumResponseBytes(maximumResponseBytes)
        self.eventLoop = client.eventLoopGroup.next()
    }

    /// The event loop this transport's requests prefer (see ``send(_:)``).
    let eventLoop: any EventLoop

    /// Sends `request` through the client and returns the whole body and the response head.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .get, url: URL(string: "https://api.example.com/v1/ping")!)
    /// let (body, head) = try await AsyncHTTPClientTransport.shared.send(request)
    /// print(head.statusCode, body.count)   // a 500 is returned here, not thrown
    /// ```
    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        // What a call costs is mostly thread hand-offs, so this uses AsyncHTTPClient's
        // delegate API rather than `execute(_:deadline:)`: the whole exchange (deadline,
        // request, head, body, end) then runs on one event loop and comes back with one
        // continuation, where the async API also starts a `Task` per request, schedules
        // and cancels the deadline from off the loop, and streams the body through an
        // async sequence. The event loop is the transport's own, passed as a preference:
        // connections for it are made on it, so a reply never hops between loops (with no
        // preference the pool answers on any loop, often not the connection's).
        // `timeout` is at most a day (TransportLimits), so its nanoseconds fit an Int64.
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1_000_000_000))
        do {
            let clientRequest = try Self.clientRequest(for: request)
            let task = client.execute(
                request: clientRequest,
                delegate: BodyCollector(request: request, maximumBytes: maximumResponseBytes),
                eventLoop: .delegate(on: eventLoop),
                deadline: deadline
            )
            let (head, body) = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            let data = body.map { Data($0.readableBytesView) } ?? Data()
            return (data, Self.responseHead(of: head))
        } catch {
            if Task.isCancelled || error is CancellationError || (error as? HTTPClientError) == .cancelled {
                throw CancellationError()
            }
            // The body collector's own refusals (a redirect, a body too large) come back as they were made.
            if let refusal = error as? TransportError { throw refusal }
            let failure = AsyncHTTPClientFailure(error)
            throw TransportError(failure.kind, underlying: failure)
        }
    }

    static func clientRequest(for request: HTTPRequest) throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for (name, value) in request.headerFields {
            headers.replaceOrAdd(name: name, value: value)
        }
        return try HTTPClient.Request(
            url: request.url,
            method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            headers: headers,
            body: request.body.map { .bytes($0) }
        )
    }

    static func responseHead(of head: HTTPResponseHead) -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in head.headers {
            // Repeated fields are joined the way HTTPURLResponse joins them.
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
        }
        return HTTPResponse(statusCode: Int(head.status.code), headerFields: headers)
    }
}
