public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that got no HTTP response: the connection could not be made, timed out or
/// dropped, or the transport refused what the server sent (a redirect of a credential to
/// another origin, a body over its limit).
///
/// Transports throw it so that ``NetworkError/isTransient`` can tell a retryable failure
/// from a permanent one.
public struct TransportError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong, as far as retrying is concerned.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind, for example `"timedOut"`.
        public let rawValue: String
        /// Creates a kind; prefer the static values.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No connection could be made (no network, host unknown, connection refused).
        public static let cannotConnect = Kind(rawValue: "cannotConnect")
        /// The server did not answer in time: the whole request, redirects and body included,
        /// took longer than the transport's timeout.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The connection closed before a whole response arrived.
        public static let connectionLost = Kind(rawValue: "connectionLost")
        /// TLS failed (certificate, handshake). Not transient.
        public static let secureConnectionFailed = Kind(rawValue: "secureConnectionFailed")
        /// The server redirected a request that carries a credential to another origin, and
        /// the transport refused to follow (``RedirectPolicy``); the description names both
        /// origins. Made by ``TransportError/redirectRefused(from:to:)``. Not transient.
        public static let redirectRefused = Kind(rawValue: "redirectRefused")
        /// The response body is larger than the transport accepts; the transport stopped
        /// reading it. Made by ``TransportError/responseTooLarge(limit:announcedLength:)``,
        /// whose description names the limit. Not transient.
        public static let responseTooLarge = Kind(rawValue: "responseTooLarge")
        /// Anything else.
        public static let other = Kind(rawValue: "other")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// The transport's own error, for example a `URLError`.
    public let underlying: (any Error)?

    /// Creates a transport error.
    public init(_ kind: Kind, underlying: (any Error)? = nil) {
        self.kind = kind
        self.underlying = underlying
    }

    /// A redirect the transport refused to follow (``RedirectPolicy/refusal(of:redirectedTo:)``
    /// makes these for the redirects the SDK's rule refuses): kind ``Kind/redirectRefused``.
    /// - Parameters:
    ///   - from: The origin of the request, for example `https://api.example.com:443`.
    ///   - to: The origin the server redirected it to.
    public static func redirectRefused(from: String, to: String) -> TransportError {
        TransportError(.redirectRefused, underlying: CrossOriginRedirect(from: from, to: to))
    }

    /// A response whose body is larger than the transport accepts: kind ``Kind/responseTooLarge``.
    /// - Parameters:
    ///   - limit: The largest body the transport accepts, in bytes.
    ///   - announcedLength: What `Content-Length` announced, when that is how the transport
    ///     knew; `nil` when the body passed the limit while it arrived.
    public static func responseTooLarge(limit: Int, announcedLength: Int? = nil) -> TransportError {
        TransportError(.responseTooLarge, underlying: ResponseTooLarge(limit: limit, announcedLength: announcedLength))
    }

    /// A request that did not finish within the transport's own timeout, counted from the
    /// moment it was sent to the last byte of the answer: kind ``Kind/timedOut``.
    /// - Parameter timeout: The timeout, in seconds.
    public static func deadlineExceeded(timeout: TimeInterval) -> TransportError {
        TransportError(.timedOut, underlying: RequestDeadlineExceeded(timeout: timeout))
    }

    /// Whether trying again later may succeed.
    public var isTransient: Bool {
        kind == .cannotConnect || kind == .timedOut || kind == .connectionLost
    }

    /// For example `transport error (other): too many HTTP redirects`: the kind and what
    /// the transport reported, with anything token-like redacted.
    public var description: String {
        guard let cause else { return "transport error (\(kind))" }
        return "transport error (\(kind)): \(cause)"
    }

    /// The description.
    public var errorDescription: String? { description }

    /// What the underlying error says, redacted; `nil` when there is none.
    public var cause: String? {
        guard let underlying else { return nil }
        // The transports' own refusals name origins and numbers only; redacting them would
        // hide a long host name.
        switch underlying {
        case let refusal as CrossOriginRedirect: return refusal.description
        case let tooLarge as ResponseTooLarge: return tooLarge.description
        case let deadline as RequestDeadlineExceeded: return deadline.description
        default: break
        }
        #if canImport(FoundationNetworking) || canImport(Darwin)
        if let urlError = underlying as? URLError {
            return Redaction.redact(Self.summary(of: urlError))
        }
        #endif
        return Redaction.redact(String(describing: underlying))
    }
}

