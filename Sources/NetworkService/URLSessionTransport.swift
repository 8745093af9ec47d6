public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: Foundation's `URLSession` (`FoundationNetworking` on Linux).
///
/// Failures without a response become ``TransportError``s: a timeout is `.timedOut`, a
/// refused or unreachable host `.cannotConnect`, a connection closed mid-response
/// `.connectionLost`.
///
/// What it refuses and bounds, whatever the server does:
/// - **Redirects.** A request that carries a credential (a secret header such as
///   `Authorization`, or a body) follows redirects within its own origin only; a redirect to
///   another scheme, host or port fails with `.redirectRefused` before anything is sent
///   there (``RedirectPolicy``). Other redirects are followed as `URLSession` follows them,
///   a relative `Location` resolved as RFC 9110 says (FoundationNetworking on Linux drops
///   its trailing slash), and a 307 or 308 re-sends the body (which FoundationNetworking
///   drops): the transport sends such a request again itself, up to 10 times.
/// - **Response size.** A body larger than ``maximumResponseBytes`` fails with
///   `.responseTooLarge`: at the head when `Content-Length` announces it, otherwise as soon
///   as that many bytes have arrived; the transport keeps no more than the limit. (On Linux
///   FoundationNetworking goes on reading until it handles the cancellation, a moment later;
///   the transport drops each piece as it comes, so memory stays bounded.)
/// - **Time.** ``timeout`` bounds the whole request, redirects and body included: a server
///   that sends a byte now and then cannot keep it waiting longer (`.timedOut`, made by
///   ``TransportError/deadlineExceeded(timeout:)``).
///
/// **Authentication challenges.** A 401 is returned as it came, with its body, whatever its
/// `WWW-Authenticate` (Basic, Digest, Bearer). On Linux, FoundationNetworking of Swift 6.3.1
/// and earlier never ends a request answered by a 401 with a Basic challenge (the answer
/// RFC 6749 §5.2 gives a bad client secret) unless a delegate answers the challenge: the
/// transport's delegate answers it with the 401, at once.
///
/// **A waiting request spins on Linux.** While a request on a new connection waits for its
/// answer (a slow or silent server, a trickling body), FoundationNetworking uses most of a
/// core until the answer ends; a request on a connection kept alive from an earlier one does
/// not. Nothing in the session's API or the transport reaches the cause, so on Linux servers
/// prefer the AsyncHTTPClient transport (<doc:GettingStarted#Choose-a-transport-on-Linux-servers>
/// has the measurements).
///
/// Absurd settings are bounded rather than trusted (``TransportLimits``): a timeout is kept
/// within a millisecond and a day, a negative size limit becomes 0.
///
/// **A session of yours.** ``init(session:timeout:maximumResponseBytes:)`` with a session
/// gets the same redirect rule and deadline (through a task delegate that implements
/// redirects only, so your session's delegate still gets everything else), but `URLSession`
/// hands a body to the session's own delegate only, so the size limit is checked once the
/// whole body has arrived: it is refused all the same, but the memory it took is bounded by
/// the deadline alone. For the same reason, on Linux, a 401 with a Basic challenge that your
/// session's delegate does not answer with a credential comes back at once but without its
/// body. To customise the session and keep memory bounded (and a 401's body), pass its
/// configuration to ``init(configuration:timeout:maximumResponseBytes:)`` instead.
///
/// ```swift
/// let server = try Server(baseURL: "https://api.example.com",
///                         transport: URLSessionTransport(timeout: 10))
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// Seconds a whole request may take, from sending it to the last byte of the answer,
    /// before it fails with `.timedOut`; within a millisecond and a day (``TransportLimits``).
    public let timeout: TimeInterval
    /// The largest response body accepted, in bytes; a larger one fails with `.responseTooLarge`.
    public let maximumResponseBytes: Int
    /// The delegate of a session the transport made; `nil` for a session of yours.
    private let delegate: URLSessionTransportDelegate?
    /// Invalidates a session made from a configuration once no copy of the transport uses it.
    private let owner: SessionOwner?
    /// The headers the session adds to every request (its configuration's), read once: a
    /// session keeps a copy of its configuration, so they cannot change.
    private let sessionHeaders: [String: String]

    /// Creates a transport over `session`. Without one, it uses an ephemeral session (no
    /// cookies or cache on disk) shared by every transport made this way, whatever its timeout.
    /// With one, see the type's discussion for what the size limit can and cannot do.
    public init(session: URLSession? = nil, timeout: TimeInterval = Self.defaultTimeout,
                maximumResponseBytes: Int = Self.defaultMaximumResponseBytes) {
        self.timeout = TransportLimits.boundedTimeout(timeout)
        self.maximumResponseBytes = TransportLimits.boundedMaximumResponseBytes(maximumResponseBytes)
        self.owner = nil
        if let session {
            self.session = session
            self.delegate = nil
        } else {
            self.session = Self.sharedSession.session
            self.delegate = Self.sharedSession.delegate
        }
        self.sessionHeaders = Self.headers(of: self.session)
    }

    /// Creates a transport over a session of its own made from `configuration` (a proxy,
    /// extra headers, TLS settings...), with every protection of the type's discussion.
    /// The session is invalidated once the transport and its copies are gone.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.httpAdditionalHeaders = ["User-Agent": "MyApp/1.0"]   // an Authorization here counts as a credential for redirects too
    /// let transport = URLSessionTransport(configuration: configuration, timeout: 10)
    /// ```
    public init(configuration: URLSessionConfiguration, timeout: TimeInterval = Self.defaultTimeout,
                maximumResponseBytes: Int = Self.defaultMaximumResponseBytes) {
        // A copy, its idle timeout bounded: FoundationNetworking multiplies it into an `Int`.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.timeoutIntervalForRequest = TransportLimits.boundedTimeout(configuration.timeoutIntervalForRequest)
        let (session, delegate) = Self.makeSession(configuration)
        self.session = session
        self.delegate = delegate
        self.owner = SessionOwner(session)
        self.sessionHeaders = Self.headers(of: session)
        self.timeout = TransportLimits.boundedTimeout(timeout)
        self.maximumResponseBytes = TransportLimits.boundedMaximumResponseBytes(maximumResponseBytes)
    }

    /// 30 seconds.
    public static let defaultTimeout: TimeInterval = TransportLimits.defaultTimeout
    /// 16 MiB (``TransportLimits/defaultMaximumResponseBytes`` says why).
    public static let defaultMaximumResponseBytes = TransportLimits.defaultMaximumResponseBytes

    private static let sharedSession: (session: URLSession, delegate: URLSessionTransportDelegate) = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return makeSession(configuration)
    }()

    private static func makeSession(_ configuration: URLSessionConfiguration) -> (URLSession, URLSessionTransportDelegate) {
        let delegate = URLSessionTransportDelegate()
        #if canImport(FoundationNetworking)
        let queue: OperationQueue? = InlineOperationQueue()
        #else
        let queue: OperationQueue? = nil
        #endif
        return (URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue), delegate)
    }

    private static func headers(of session: URLSession) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in session.configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return headers
    }

    /// Sends `request` through the session.
    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        let deadline = DispatchTime.now() + timeout
        var request = request
        for _ in 0...Self.maximumResends {
            let (answer, resendTarget) = try await exchange(request, deadline: deadline)
            guard let resendTarget else { return answer }
            request.url = resendTarget
        }
        throw TransportError(.other, underlying: URLError(.httpTooManyRedirects))
    }

    /// How many times a request with a body is sent again after a 307 or 308 (see
    /// ``URLSessionExchange/resendTarget``) before it fails as too many redirects.
    static let maximumResends = 10

    /// One exchange of `request` with the server, ending at `deadline`; the answer and,
    /// after a 307 or 308 of a request with a body, where to send it again.
    private func exchange(_ request: HTTPRequest, deadline: DispatchTime) async throws -> (URLSessionExchange.Answer, URL?) {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData)
        // Set, not passed to the initialiser: FoundationNetworking applies a request's idle
        // timeout only when it was set (otherwise the session's 60 s apply).
        urlRequest.timeoutInterval = timeout
        // A new request is a GET without a body: only what differs is set.
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        if let body = request.body { urlRequest.httpBody = body }
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        // The redirect rule judges what will actually be sent: the session adds its
        // configuration's headers (an `Authorization` there is a credential too).
        var judged = request
        for (name, value) in sessionHeaders
        where !judged.headerFields.keys.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
            judged.headerFields[name] = value
        }
        let exchange = URLSessionExchange(request: judged, timeout: timeout, deadline: deadline,
                                          maximumBytes: maximumResponseBytes)
        let task: URLSessionDataTask
        if let delegate {
            task = session.dataTask(with: urlRequest)
            delegate.register(exchange, for: task)
        } else {
            task = session.dataTask(with: urlRequest) { data, response, error in
                exchange.complete(data: data, response: response, error: error)
            }
            task.delegate = URLSessionRedirectGuard(exchange)
        }
        let answer = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(task, continuation: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
        return (answer, exchange.resendTarget)
    }

    static func kind(of error: URLError) -> TransportError.Kind {
        switch error.code {
        case .timedOut:
            return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
             .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return .cannotConnect
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return .connectionLost
        case .unknown:
            // FoundationNetworking on Linux reports curl failures mid-transfer ("transfer
            // closed with N bytes remaining") as an unknown URL error: a connection lost.
            return .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            return .secureConnectionFailed
        default:
            return .other
        }
    }
}

extension URLSessionTransport {
    /// Invalidates the session of a transport made from a configuration when the last copy
    /// of the transport goes away (a session keeps its delegate, and itself, alive until then).
    final class SessionOwner: Sendable {
        let session: URLSession
        init(_ session: URLSession) { self.session = session }
        deinit { session.finishTasksAndInvalidate() }
    }
}
