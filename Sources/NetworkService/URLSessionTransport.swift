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
/// ```swift
/// let server = try Server(baseURL: "https://api.example.com",
///                         transport: URLSessionTransport(timeout: 10))
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// Seconds a request may wait for data before it fails with `.timedOut`.
    public let timeout: TimeInterval

    /// Creates a transport over `session`. Without one, it uses an ephemeral session (no
    /// cookies or cache on disk) whose request timeout is `timeout`; transports with the
    /// default timeout share one such session.
    public init(session: URLSession? = nil, timeout: TimeInterval = Self.defaultTimeout) {
        self.session = session ?? (timeout == Self.defaultTimeout ? Self.sharedEphemeralSession : Self.makeEphemeralSession(timeout: timeout))
        self.timeout = timeout
    }

    /// 30 seconds.
    public static let defaultTimeout: TimeInterval = 30

    private static let sharedEphemeralSession = makeEphemeralSession(timeout: defaultTimeout)

    private static func makeEphemeralSession(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        return URLSession(configuration: configuration)
    }

    /// Sends `request` through the session.
    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            throw TransportError(Self.kind(of: error), underlying: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError(.other)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return (data, HTTPResponse(statusCode: http.statusCode, headerFields: headers))
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
