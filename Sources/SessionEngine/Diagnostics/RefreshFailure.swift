public import Foundation
import NetworkService

/// A refresh failure that keeps the session, classified by whether the request may have
/// reached the server's token logic: what decides whether retrying it with the same refresh
/// token is safe (``RefreshRetryPolicy``).
public struct RefreshFailure: Sendable, Equatable, CustomStringConvertible {
    /// What failed. An open set: switch with a `default`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind.
        public let rawValue: String
        /// Creates a kind; prefer the static values.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No connection could be made: the request never left.
        public static let cannotConnect = Kind(rawValue: "cannotConnect")
        /// No answer in time: the server may have rotated.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The connection closed before a whole answer arrived: the server may have rotated.
        public static let connectionLost = Kind(rawValue: "connectionLost")
        /// An HTTP status that neither rejects the refresh token nor ends the session (408, 429, 5xx).
        public static let httpStatus = Kind(rawValue: "httpStatus")
        /// A 2xx answer that is not tokens (garbage, truncated).
        public static let unreadableAnswer = Kind(rawValue: "unreadableAnswer")
        /// The refresh was cancelled (a sign-in or sign-out here).
        public static let cancelled = Kind(rawValue: "cancelled")
        /// Anything else (TLS, a refused redirect, an error of a refresher of your own).
        public static let other = Kind(rawValue: "other")
        /// The server asked for a DPoP proof with its nonce (`use_dpop_nonce`, RFC 9449 §8) again
        /// after the retry with the nonce it gave: the request did not reach the token logic.
        public static let dpopNonce = Kind(rawValue: "dpopNonce")
        /// The server refused the DPoP proof (`invalid_dpop_proof`): a clock that is off, a proof
        /// a transport replayed. The session is kept; the refresh limit bounds the retries.
        public static let dpopProofRefused = Kind(rawValue: "dpopProofRefused")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// Whether the failed request may have reached the server's token logic.
    public enum Delivery: String, Sendable, Equatable, CustomStringConvertible {
        /// It provably did not (no connection, 429, 503 with `Retry-After`): retrying with the
        /// same refresh token is safe on any server.
        case notDelivered
        /// It may have, and the server may have rotated (a timeout, a connection dropped after
        /// sending, 408, another 5xx, garbage): retrying presents a refresh token the server may
        /// have retired, safe only on a server that forgives a lost response.
        case ambiguous
        /// Retrying cannot help (cancelled, TLS, a refused redirect, an unknown error).
        case notRetryable

        /// The raw value.
        public var description: String { rawValue }
    }

    /// What failed.
    public let kind: Kind
    /// The HTTP status, when an answer arrived.
    public let statusCode: Int?
    /// How long the server asked to wait (`Retry-After`), within 0 seconds to one day.
    public let retryAfter: TimeInterval?
    /// Whether the request may have reached the token logic.
    public let delivery: Delivery

    /// Creates a failure; `init(classifying:)` makes them from the refresher's errors.
    package init(kind: Kind, statusCode: Int? = nil, retryAfter: TimeInterval? = nil, delivery: Delivery) {
        self.kind = kind
        self.statusCode = statusCode
        self.retryAfter = retryAfter.flatMap { $0.isFinite ? min(max($0, 0), 86_400) : nil }
        self.delivery = delivery
    }

    /// Classifies an error a refresher threw (one the failure rule did not take as a rejection).
    package init(classifying error: any Error) {
        guard let error = error as? NetworkError else {
            self.init(kind: error is CancellationError ? .cancelled : .other, delivery: .notRetryable)
            return
        }
        switch error.kind {
        case .transport:
            switch (error.underlying as? TransportError)?.kind {
            case .cannotConnect?: self.init(kind: .cannotConnect, delivery: .notDelivered)
            case .timedOut?: self.init(kind: .timedOut, delivery: .ambiguous)
            case .connectionLost?: self.init(kind: .connectionLost, delivery: .ambiguous)
            default: self.init(kind: .other, delivery: .notRetryable)
            }
        case .httpStatus:
            let status = error.statusCode ?? 0
            let delivery: Delivery
            if status == 429 || (status == 503 && error.retryAfter != nil) {
                delivery = .notDelivered
            } else if status == 408 || (500...599).contains(status) {
                delivery = .ambiguous
            } else {
                delivery = .notRetryable
            }
            self.init(kind: .httpStatus, statusCode: error.statusCode, retryAfter: error.retryAfter, delivery: delivery)
        case .decoding:
            self.init(kind: .unreadableAnswer, statusCode: error.statusCode, delivery: .ambiguous)
        case .cancelled:
            self.init(kind: .cancelled, delivery: .notRetryable)
        default:
            self.init(kind: .other, delivery: .notRetryable)
        }
    }

    /// For example `HTTP 503, retry after 1 s, not delivered` or `timedOut, ambiguous`.
    public var description: String {
        var text = statusCode.map { "HTTP \($0)" } ?? kind.rawValue
        if let retryAfter { text += ", retry after \(Int(retryAfter.rounded(.up))) s" }
        return text + ", \(delivery)"
    }
}
