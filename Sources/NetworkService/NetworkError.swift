public import Foundation

/// Why a request failed, with the context to act on it.
///
/// Every failure of ``Server/send(_:accessToken:)`` is a `NetworkError`: it names the
/// endpoint (method and path), the HTTP status when one came back, the server's error code
/// and message when it sent them, and the underlying error. Two questions have ready
/// answers: ``isAuthenticationFailure`` (the access token is no good: refresh and retry) and
/// ``isTransient`` (worth retrying later).
///
/// Its description never contains an access token, an `Authorization` header or a body
/// beyond a short snippet with anything token-like redacted.
public struct NetworkError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. An open set: switch with a `default`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind.
        public let rawValue: String
        /// Creates a kind; prefer the static values.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No response arrived: see ``NetworkError/underlying`` (usually a ``TransportError``).
        public static let transport = Kind(rawValue: "transport")
        /// The server answered with a status outside 200–299.
        public static let httpStatus = Kind(rawValue: "httpStatus")
        /// The server answered 2xx but the body is not what the endpoint returns
        /// (HTML, truncated, wrong shape).
        public static let decoding = Kind(rawValue: "decoding")
        /// The request could not be built or sent as described (a bearer endpoint without
        /// a token, a body that does not encode). Nothing was sent.
        public static let invalidRequest = Kind(rawValue: "invalidRequest")
        /// The task was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// The request would have gone over plain http to a host that is not loopback, or to a
        /// port outside 1–65535; ``NetworkError/serverMessage`` says which URL and why. Nothing
        /// was sent: every request to a server carries a secret.
        public static let insecureURL = Kind(rawValue: "insecureURL")
        /// A ``Server`` was not made: its base URL is not an absolute http(s) URL with a host,
        /// carries a query, fragment or user info, has a port outside 1–65535, or is plain http
        /// on a host that is not loopback. ``NetworkError/serverMessage`` says why; the method
        /// is `GET` and the path empty, as no request was made.
        public static let invalidServerURL = Kind(rawValue: "invalidServerURL")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let kind: Kind
    /// The method of the request.
    public let method: HTTPMethod
    /// The rendered path of the request (no query), for example `/v1/posts/42`.
    public let path: String
    /// The HTTP status, when a response arrived.
    public let statusCode: Int?
    /// The server's error code, when the body was the contract's error envelope.
    public let serverErrorCode: ServerErrorCode?
    /// The server's error message, redacted of anything token-like, its control characters
    /// written as escapes (so is every text here that a server chose). For `.decoding`, what the
    /// body was instead (never a byte of a successful answer); for `.invalidRequest`,
    /// `.insecureURL` and `.invalidServerURL`, why nothing was sent.
    public let serverMessage: String?
    /// The `WWW-Authenticate` challenge of a 401 or 403, when the server sent one, redacted of
    /// anything token-like (an `error_description` may echo the token it refused).
    public let authenticateChallenge: String?
    /// At most 80 characters of an unexpected body, redacted; `nil` when the body was fine.
    public let responseSnippet: String?
    /// How long the server asked the client to wait before trying again (`Retry-After`, in
    /// seconds or as a date), for example with 429 `rate_limited` or 503. Always within
    /// 0 seconds to one day: a longer wait is cut to a day, so arithmetic on it never overflows.
    public let retryAfter: TimeInterval?
    /// The error underneath: a ``TransportError``, a `DecodingError`, an `EncodingError`.
    public let underlying: (any Error)?
    /// What the 401's challenge (or error code) says about a step-up (RFC 9470), read from the
    /// challenge as given (the request's secrets already replaced) before ``authenticateChallenge``'s
    /// redaction, which may cut an `acr_values` URI; `nil` when it asks for none.
    package var stepUpReading: StepUpChallenge.Reading?

    /// Creates an error; the SDK makes these, tests and custom transports may too.
    /// `retryAfter` is kept within 0 seconds to one day (NaN becomes `nil`).
    public init(
        kind: Kind, method: HTTPMethod, path: String, statusCode: Int? = nil,
        serverErrorCode: ServerErrorCode? = nil, serverMessage: String? = nil,
        authenticateChallenge: String? = nil, responseSnippet: String? = nil, underlying: (any Error)? = nil,
        retryAfter: TimeInterval? = nil
    ) {
        self.kind = kind
        self.method = method
        self.path = path
        self.statusCode = statusCode
        // A code is the server's word too: one with control characters is shown escaped.
        self.serverErrorCode = serverErrorCode.map { code in
            code.rawValue.unicodeScalars.contains(where: Redaction.isUnprintable)
                ? ServerErrorCode(rawValue: Redaction.printable(code.rawValue)) : code
        }
        self.serverMessage = serverMessage.map { Redaction.printable(Redaction.redact($0)) }
        self.authenticateChallenge = authenticateChallenge.map { Redaction.printable(Redaction.redact($0)) }
        self.responseSnippet = responseSnippet.map(Redaction.printable)
        self.underlying = underlying
        self.retryAfter = retryAfter.flatMap(RetryAfter.bounded)
        if kind == .httpStatus, statusCode == 401 {
            stepUpReading = authenticateChallenge.flatMap(StepUpChallenge.reading(of:))
                ?? (serverErrorCode == .insufficientUserAuthentication ? .challenge(StepUpChallenge(scheme: nil)) : nil)
        }
    }

    /// Whether the access token was refused, by the default rule: HTTP 401, or a 403 whose
    /// Bearer challenge says `error="invalid_token"` (RFC 6750 §3.1); a bare 403 never counts.
    /// Use ``isAuthenticationFailure(under:)`` for another rule.
    public var isAuthenticationFailure: Bool {
        isAuthenticationFailure(under: .default)
    }

    /// Whether the access token was refused under `policy`.
    public func isAuthenticationFailure(under policy: AuthenticationFailurePolicy) -> Bool {
        policy.matches(self)
    }

    /// Whether trying again later may succeed: no connection, a timeout, a dropped
    /// connection, HTTP 408, 429 or any 5xx. ``retryAfter`` says how much later, when the server said.
    public var isTransient: Bool {
        switch kind {
        case .transport:
            return (underlying as? TransportError)?.isTransient ?? false
        case .httpStatus:
            guard let statusCode else { return false }
            return statusCode == 408 || statusCode == 429 || (500...599).contains(statusCode)
        default:
            return false
        }
    }

    /// For example `GET /v1/posts/42 failed: HTTP 404 not_found "no post 42"`.
    public var description: String {
        if kind == .invalidServerURL, let invalid = underlying as? InvalidServerURLError { return invalid.description }
        var text = "\(method.rawValue) \(path) failed: "
        switch kind {
        case .transport:
            text += (underlying as? TransportError)?.description ?? "transport error"
        case .httpStatus:
            text += "HTTP \(statusCode.map(String.init) ?? "?")"
            if let serverErrorCode { text += " \(serverErrorCode)" }
            if let serverMessage { text += " \"\(serverMessage)\"" }
            if serverErrorCode == nil, let responseSnippet { text += " (unexpected body: \"\(responseSnippet)\")" }
            if let retryAfter { text += "; retry after \(Int(retryAfter.rounded(.up))) s" }
        case .decoding:
            text += "HTTP \(statusCode.map(String.init) ?? "?") with a body that is not the expected response"
            if let underlying = underlying as? DecodingError { text += " (\(Self.summary(of: underlying)))" }
            text += responseSnippet.map { $0.isEmpty ? "; the body was empty" : "; body starts: \"\($0)\"" } ?? ""
            if let serverMessage { text += "; \(serverMessage)" }
        case .invalidRequest:
            text += "the request could not be sent"
            if let serverMessage { text += ": \(serverMessage)" }
        case .cancelled:
            text += "cancelled"
        case .insecureURL:
            text += "refused before sending"
            if let serverMessage { text += ": \(serverMessage)" }
        default:
            text += kind.rawValue
        }
        return text
    }

    /// A one-line summary of a decoding error without the values it saw.
    private static func summary(of error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "at the top level" : "at \(path)"
        }
        switch error {
        case let .keyNotFound(key, context): return "missing key \(key.stringValue) \(path(context))"
        case let .typeMismatch(type, context): return "expected \(type) \(path(context))"
        case let .valueNotFound(type, context): return "missing \(type) value \(path(context))"
        case let .dataCorrupted(context): return "not valid JSON or an invalid value \(path(context))"
        @unknown default: return "undecodable"
        }
    }
}

extension NetworkError {
    /// Whether the server asks for a stronger or more recent sign-in (RFC 9470): a 401 whose
    /// `Bearer` or `DPoP` challenge says `error="insufficient_user_authentication"` (or whose
    /// body's error code says it). The access token is good; refreshing it cannot help, so this
    /// is never an authentication failure under any ``AuthenticationFailurePolicy``. Read what
    /// the server asks for with ``stepUpChallenge()``.
    public var isStepUpChallenge: Bool { stepUpReading != nil }

    /// What the server asks for when ``isStepUpChallenge``: the `acr_values` and `max_age` of
    /// its challenge; `nil` for any other error.
    /// - Throws: ``StepUpChallengeError`` when the challenge asks for a step-up with parameters
    ///   that cannot be used (see ``StepUpChallenge/parse(_:)``).
    public func stepUpChallenge() throws(StepUpChallengeError) -> StepUpChallenge? {
        switch stepUpReading {
        case nil: return nil
        case let .challenge(challenge)?: return challenge
        case let .unreadable(error)?: throw error
        }
    }

    /// Whether the server asked for a DPoP proof with its nonce (RFC 9449 §8, §9): a 400 or
    /// 401 saying `use_dpop_nonce`, as its error code or in a `WWW-Authenticate: DPoP`
    /// challenge. A proving ``Server`` answers the first such challenge itself, with one more
    /// send; this error means the server challenged that one too. It is about the proof, not
    /// the token: refreshing the token does not help.
    public var isDPoPNonceChallenge: Bool {
        guard kind == .httpStatus, statusCode == 400 || statusCode == 401 else { return false }
        return serverErrorCode == .useDPoPNonce || dpopChallengeError == ServerErrorCode.useDPoPNonce.rawValue
    }

    /// Whether the server refused the request's DPoP proof rather than its token: a
    /// `use_dpop_nonce` or `invalid_dpop_proof`, as the error code or in a `DPoP` challenge.
    package var isDPoPProofFailure: Bool {
        let proofCodes = [ServerErrorCode.useDPoPNonce, .invalidDPoPProof]
        if let serverErrorCode, proofCodes.contains(serverErrorCode) { return true }
        return dpopChallengeError.map { proofCodes.contains(ServerErrorCode(rawValue: $0)) } ?? false
    }

    /// The `error` of the response's `DPoP` challenge (RFC 9449 §7.1), if it has one.
    private var dpopChallengeError: String? {
        authenticateChallenge.flatMap { DPoPChallenge.parameters(of: $0)?["error"] }
    }
}
