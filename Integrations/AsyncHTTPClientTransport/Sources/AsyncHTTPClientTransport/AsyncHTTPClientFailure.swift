import AsyncHTTPClient
public import NetworkService
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an ``AsyncHTTPClientTransport`` request got no response: the `underlying` error of
/// the ``NetworkService/TransportError`` it throws, the counterpart of the `URLError` that
/// `URLSessionTransport` puts there.
///
/// Its description is a short English summary that names neither the URL nor any header,
/// for example `too many HTTP redirects (AsyncHTTPClient: Redirect limit reached)`, so a
/// `TransportError`'s `cause` never shows a token. The error AsyncHTTPClient or SwiftNIO
/// threw is kept in ``error`` for code that wants to look closer; it is not printed.
///
/// ```swift
/// do {
///     _ = try await AsyncHTTPClientTransport.shared.send(request)
/// } catch let error as TransportError {
///     print(error)   // transport error (cannotConnect): could not connect to the server (NIOConnectionError)
///     let failure = error.underlying as? AsyncHTTPClientFailure
///     print(failure?.error is HTTPClientError)
/// }
/// ```
public struct AsyncHTTPClientFailure: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What the failure means for retrying, as `URLSessionTransport` would classify it.
    public let kind: TransportError.Kind
    /// The redacted summary, for example `the request timed out (AsyncHTTPClient: Deadline exceeded)`.
    public let summary: String
    /// The error AsyncHTTPClient or SwiftNIO threw. Its own description may name the host
    /// or carry header values: print ``summary`` instead.
    public let error: any Error

    /// Classifies `error`, an error thrown by `HTTPClient.execute` or while reading a body.
    ///
    /// ```swift
    /// let failure = AsyncHTTPClientFailure(HTTPClientError.deadlineExceeded)
    /// failure.kind == .timedOut   // true
    /// ```
    public init(_ error: any Error) {
        self.error = error
        let (kind, text, source) = Self.classify(error)
        self.kind = kind
        self.summary = "\(text) (\(source))"
    }

    /// The summary.
    public var description: String { summary }
    /// The summary.
    public var debugDescription: String { summary }
}

extension AsyncHTTPClientFailure: CustomReflectable {
    /// A mirror that shows the kind and summary only, so `dump(_:)` prints nothing the
    /// underlying error carried.
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind, "summary": summary]) }
}

extension AsyncHTTPClientFailure {
    private typealias Classification = (kind: TransportError.Kind, text: String, source: String)

    private static func classify(_ error: any Error) -> Classification {
        switch error {
        case let error as HTTPClientError:
            return classify(error)
        case is NIOConnectionError:
            return (.cannotConnect, "could not connect to the server", "NIOConnectionError")
        case let error as IOError:
            return classify(errno: error.errnoCode)
        case let error as ChannelError:
            return classify(error)
        case is SocketAddressError:
            return (.cannotConnect, "the server's host name could not be found", "SocketAddressError")
        case is HTTPParserError:
            return (.connectionLost, "the server's response was not valid HTTP", "HTTPParserError")
        case is NIOTooManyBytesError:
            return (.responseTooLarge, "the response body is larger than the transport accepts", "NIOTooManyBytesError")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return (.secureConnectionFailed, "the secure connection failed", String(describing: type(of: error)))
        default:
            return (.other, "the request failed", String(describing: type(of: error)))
        }
    }

    private static func classify(_ error: HTTPClientError) -> Classification {
        let source = "AsyncHTTPClient: \(error.shortDescription)"   // never carries associated values
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
            return (.timedOut, "the request timed out", source)
        case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return (.timedOut, "connecting to the server timed out", source)
        case .remoteConnectionClosed:
            return (.connectionLost, "the network connection was lost", source)
        case .redirectLimitReached, .redirectCycleDetected:
            return (.other, "too many HTTP redirects", source)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return (.other, "the URL is not supported", source)
        case .alreadyShutdown:
            return (.other, "the HTTP client was shut down", source)
        case .proxyAuthenticationRequired:
            return (.other, "the proxy asked for authentication", source)
        case .cancelled, .requestStreamCancelled:
            return (.other, "the request was cancelled", source)
        default:
            break
        }
        switch error.shortDescription {
        case HTTPClientError.unsupportedScheme("").shortDescription:
            return (.other, "the URL is not supported", source)
        case HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
             HTTPClientError.invalidHeaderFieldValues([]).shortDescription:
            return (.other, "a header field's name or value is not valid", source)
        case HTTPClientError.serverOfferedUnsupportedApplicationProtocol("").shortDescription:
            return (.secureConnectionFailed, "the secure connection failed", source)
        default:
            return (.other, "the request failed", source)
        }
    }

    private static func classify(_ error: ChannelError) -> Classification {
        switch error {
        case .connectTimeout:
            return (.timedOut, "connecting to the server timed out", "ChannelError.connectTimeout")
        case .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed, .eof:
            return (.connectionLost, "the network connection was lost", "ChannelError")
        default:
            return (.other, "the request failed", "ChannelError")
        }
    }

    private static func classify(errno code: CInt) -> Classification {
        let source = "IOError errno \(code)"
        switch code {
        case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN:
            return (.cannotConnect, "could not connect to the server", source)
        case ECONNRESET, EPIPE, ECONNABORTED:
            return (.connectionLost, "the network connection was lost", source)
        case ETIMEDOUT:
            return (.timedOut, "the request timed out", source)
        default:
            return (.other, "the request failed", source)
        }
    }
}
