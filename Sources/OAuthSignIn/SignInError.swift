public import Foundation
public import NetworkService

/// Why a sign-in failed: a ``kind`` to switch on, the server's RFC 6749 / RFC 8628 error code
/// when it sent one, and a message that says what happened. No authorization code, code
/// verifier, `state`, `nonce`, token, device code or client secret ever appears in it.
///
/// The storage is private and the ``Kind``s are static members of an open set, so new kinds
/// can come without breaking a `switch`:
///
/// ```swift
/// do {
///     try await session.signIn(with: .device(provider, scopes: ["openid"]) { print($0.userCode) })
/// } catch let error as SignInError {
///     switch error.kind {
///     case .accessDenied: print("You declined the sign-in.")
///     case .expiredToken: print("The code expired; run the command again.")
///     default: print(error.localizedDescription)
///     }
/// }
/// ```
public struct SignInError: Error, Sendable {
    /// What went wrong.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// Neither `/.well-known/openid-configuration` nor `/.well-known/oauth-authorization-server`
        /// exists at the issuer.
        public static let discoveryDocumentMissing = Kind(rawValue: "discoveryDocumentMissing")
        /// The discovery document is not JSON, or lacks a required field, or has a field that is
        /// not an absolute URL where one is required.
        public static let discoveryDocumentMalformed = Kind(rawValue: "discoveryDocumentMalformed")
        /// The discovery document names another issuer than the one asked for.
        public static let issuerMismatch = Kind(rawValue: "issuerMismatch")
        /// The server does not list `S256` in `code_challenge_methods_supported` (RFC 7636).
        public static let pkceS256Unsupported = Kind(rawValue: "pkceS256Unsupported")
        /// The provider offers no endpoint (or the client no secret) for the flow asked for.
        public static let flowUnavailable = Kind(rawValue: "flowUnavailable")
        /// The callback's `state` is missing or is not the request's.
        public static let stateMismatch = Kind(rawValue: "stateMismatch")
        /// The user (or the server for them) declined: `access_denied` (RFC 6749 §4.1.2.1,
        /// RFC 8628 §3.5).
        public static let accessDenied = Kind(rawValue: "accessDenied")
        /// The authorization endpoint answered with another error (RFC 6749 §4.1.2.1), in
        /// ``SignInError/serverErrorCode``; or the callback had neither a code nor an error.
        public static let authorizationError = Kind(rawValue: "authorizationError")
        /// The token endpoint refused (RFC 6749 §5.2), its code in ``SignInError/serverErrorCode``.
        public static let tokenEndpointError = Kind(rawValue: "tokenEndpointError")
        /// The device authorization endpoint refused (RFC 8628 §3.2), its code in
        /// ``SignInError/serverErrorCode``.
        public static let deviceAuthorizationError = Kind(rawValue: "deviceAuthorizationError")
        /// The device code expired before the user approved (`expired_token`, RFC 8628 §3.5,
        /// or its `expires_in` passed).
        public static let expiredToken = Kind(rawValue: "expiredToken")
        /// The ID token failed a check, named in ``SignInError/idTokenCheck``.
        public static let idTokenInvalid = Kind(rawValue: "idTokenInvalid")
        /// The browser did not come back before the flow's timeout.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The task running the flow was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// The loopback listener failed, as ``SignInError/loopbackFailure`` says.
        public static let loopbackFailed = Kind(rawValue: "loopbackFailed")
        /// A successful answer of the server could not be read (no `access_token`, not JSON).
        public static let invalidResponse = Kind(rawValue: "invalidResponse")
        /// The server could not be reached, or answered with an HTTP error outside OAuth's
        /// error format; the ``/NetworkService/NetworkError`` is in ``SignInError/underlying``.
        public static let networkFailure = Kind(rawValue: "networkFailure")
        /// The front end's `open` or `show` closure threw; its error is in ``SignInError/underlying``.
        public static let frontEndFailed = Kind(rawValue: "frontEndFailed")
        /// An issuer, or an endpoint a discovery document names, is plain `http:` on a host that
        /// is not loopback (127.0.0.0/8, `::1`, `localhost`), or has a port outside 1–65535; the
        /// detail names the URL. Nothing secret was sent.
        public static let insecureURL = Kind(rawValue: "insecureURL")
        /// The sign-in was to prove possession of a DPoP key (RFC 9449) and the server does not
        /// take its algorithm: its `dpop_signing_alg_values_supported`, which the detail lists,
        /// does not name it, or its metadata has no such field (the server does not offer
        /// DPoP). Nothing was sent.
        public static let dpopAlgorithmUnsupported = Kind(rawValue: "dpopAlgorithmUnsupported")
        /// The sign-in was to bind the session to a DPoP key and none could be made (the
        /// kind of key's error is in ``SignInError/underlying``), or the session binds sign-ins
        /// to keys and the authorization request it was given was made without one. Nothing
        /// was sent.
        public static let dpopKeyUnusable = Kind(rawValue: "dpopKeyUnusable")
        /// A sign-in asked for an ``/SessionEngine/AuthenticationRequirement`` (a step-up,
        /// RFC 9470) and its ID token does not show it met: its `acr` is not one of the values
        /// asked for, its `auth_time` is older than `max_age` (or missing, when `max_age` was
        /// asked for), older than the sign-in's start under `prompt=login`, or there is no ID
        /// token to tell (ask for the `openid` scope). ``SignInError/errorDescription`` says
        /// which. Nothing was stored.
        public static let authenticationRequirementNotMet = Kind(rawValue: "authenticationRequirementNotMet")
    }

    /// Which check of an ID token failed (OpenID Connect Core §3.1.3.7).
    public enum IDTokenCheck: String, Sendable, Hashable, CustomStringConvertible {
        /// Not a JWT whose payload is a JSON object.
        case format
        /// `iss` is not the provider's issuer.
        case issuer
        /// `aud` does not contain the client id.
        case audience
        /// Several audiences and no `azp`, or an `azp` that is not the client id.
        case authorizedParty
        /// `exp` is missing or past (beyond the clock skew leeway).
        case expiry
        /// `iat` is missing or in the future (beyond the clock skew leeway).
        case issuedAt
        /// `nonce` is missing or not the request's.
        case nonce
        /// `sub` is missing or empty.
        case subject
        /// The check's name.
        public var description: String { rawValue }
    }

    /// How the loopback listener of the browser flow failed.
    public enum LoopbackFailure: String, Sendable, Hashable, CustomStringConvertible {
        /// No socket could be bound on 127.0.0.1.
        case bind
        /// A request that is not `GET <path> HTTP/1.x`, or that stopped before its end
        /// (within the read deadline).
        case malformedRequest
        /// A request head larger than the listener reads (8 KiB).
        case oversizedRequest
        /// A request to another path than the redirect URI's (answered 404).
        case otherPath
        /// The failure's name.
        public var description: String { rawValue }
    }

    private struct Storage: Sendable {
        var kind: Kind
        var serverErrorCode: ServerErrorCode?
        var idTokenCheck: IDTokenCheck?
        var loopbackFailure: LoopbackFailure?
        var detail: String?
        var underlying: (any Error)?
    }

    private var storage: Storage

    /// What went wrong.
    public var kind: Kind { storage.kind }
    /// The server's error code (RFC 6749 §4.1.2.1 / §5.2, RFC 8628 §3.5), when it sent one.
    public var serverErrorCode: ServerErrorCode? { storage.serverErrorCode }
    /// The failed ID token check, for ``Kind/idTokenInvalid``.
    public var idTokenCheck: IDTokenCheck? { storage.idTokenCheck }
    /// How the listener failed, for ``Kind/loopbackFailed``.
    public var loopbackFailure: LoopbackFailure? { storage.loopbackFailure }
    /// What happened, in words (never a secret); part of ``errorDescription``.
    public var detail: String? { storage.detail }
    /// The error underneath: a ``/NetworkService/NetworkError``, the front end's error.
    public var underlying: (any Error)? { storage.underlying }

    init(_ kind: Kind, code: ServerErrorCode? = nil, idTokenCheck: IDTokenCheck? = nil,
         loopbackFailure: LoopbackFailure? = nil, detail: String? = nil, underlying: (any Error)? = nil) {
        // The server's code, as every server-chosen text here, cannot drive a terminal.
        let code = code.map { $0.rawValue.unicodeScalars.contains(where: Redaction.isUnprintable)
            ? ServerErrorCode(rawValue: Redaction.printable($0.rawValue)) : $0 }
        storage = Storage(kind: kind, serverErrorCode: code, idTokenCheck: idTokenCheck,
                          loopbackFailure: loopbackFailure, detail: detail, underlying: underlying)
    }

    /// This error with `detail` (and `underlying`) added; control characters in `detail` (a
    /// server's text quoted in it) are written as escapes, so printing it cannot drive a terminal.
    func with(detail: String, underlying: (any Error)? = nil) -> SignInError {
        var copy = self
        copy.storage.detail = Redaction.printable(detail)
        if let underlying { copy.storage.underlying = underlying }
        return copy
    }

    // MARK: The errors (for the SDK's own code and tests: adopters read ``kind``)

    /// ``Kind/discoveryDocumentMissing``.
    package static let discoveryDocumentMissing = SignInError(.discoveryDocumentMissing)
    /// ``Kind/discoveryDocumentMalformed``.
    package static let discoveryDocumentMalformed = SignInError(.discoveryDocumentMalformed)
    /// ``Kind/issuerMismatch``.
    package static let issuerMismatch = SignInError(.issuerMismatch)
    /// ``Kind/pkceS256Unsupported``.
    package static let pkceS256Unsupported = SignInError(.pkceS256Unsupported)
    /// ``Kind/flowUnavailable``.
    package static let flowUnavailable = SignInError(.flowUnavailable)
    /// ``Kind/stateMismatch``.
    package static let stateMismatch = SignInError(.stateMismatch)
    /// ``Kind/accessDenied``: `access_denied`.
    package static let accessDenied = SignInError(.accessDenied, code: "access_denied")
    /// ``Kind/expiredToken``: `expired_token`.
    package static let expiredToken = SignInError(.expiredToken, code: "expired_token")
    /// ``Kind/timedOut``.
    package static let timedOut = SignInError(.timedOut)
    /// ``Kind/cancelled``.
    package static let cancelled = SignInError(.cancelled)
    /// ``Kind/invalidResponse``.
    package static let invalidResponse = SignInError(.invalidResponse)
    /// ``Kind/networkFailure``.
    package static let networkFailure = SignInError(.networkFailure)
    /// ``Kind/insecureURL``.
    package static let insecureURL = SignInError(.insecureURL)
    /// ``Kind/frontEndFailed``.
    package static let frontEndFailed = SignInError(.frontEndFailed)
    /// ``Kind/dpopAlgorithmUnsupported``.
    package static let dpopAlgorithmUnsupported = SignInError(.dpopAlgorithmUnsupported)
    /// ``Kind/dpopKeyUnusable``.
    package static let dpopKeyUnusable = SignInError(.dpopKeyUnusable)
    /// ``Kind/authenticationRequirementNotMet``.
    package static let authenticationRequirementNotMet = SignInError(.authenticationRequirementNotMet)

    /// ``Kind/authorizationError`` with the server's code (`invalid_scope`, `server_error`…).
    package static func authorizationError(_ code: ServerErrorCode?) -> SignInError {
        SignInError(.authorizationError, code: code)
    }

    /// ``Kind/tokenEndpointError`` with the server's code (`invalid_grant`, `invalid_client`…).
    package static func tokenEndpointError(_ code: ServerErrorCode?) -> SignInError {
        SignInError(.tokenEndpointError, code: code)
    }

    /// ``Kind/deviceAuthorizationError`` with the server's code.
    package static func deviceAuthorizationError(_ code: ServerErrorCode?) -> SignInError {
        SignInError(.deviceAuthorizationError, code: code)
    }

    /// ``Kind/idTokenInvalid``, failing `check`.
    package static func idTokenInvalid(_ check: IDTokenCheck) -> SignInError {
        SignInError(.idTokenInvalid, idTokenCheck: check)
    }

    /// ``Kind/loopbackFailed`` with `failure`.
    package static func loopbackFailed(_ failure: LoopbackFailure) -> SignInError {
        SignInError(.loopbackFailed, loopbackFailure: failure)
    }
}

extension SignInError: Equatable {
    /// Equal when the kind, the server's code, the ID token check and the listener's failure
    /// are (the detail and the underlying error are not compared).
    public static func == (lhs: SignInError, rhs: SignInError) -> Bool {
        lhs.kind == rhs.kind && lhs.serverErrorCode == rhs.serverErrorCode
            && lhs.idTokenCheck == rhs.idTokenCheck && lhs.loopbackFailure == rhs.loopbackFailure
    }
}

extension SignInError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible {
    /// A sentence for the user, then the detail: `The sign-in was declined (access_denied).`
    public var errorDescription: String? {
        let sentence: String
        switch kind {
        case .discoveryDocumentMissing: sentence = "The server has no OpenID Connect or OAuth 2.0 discovery document."
        case .discoveryDocumentMalformed: sentence = "The server's discovery document could not be read."
        case .issuerMismatch: sentence = "The server's discovery document names another issuer."
        case .pkceS256Unsupported: sentence = "The server does not support PKCE with S256, which the browser sign-in requires."
        case .flowUnavailable: sentence = "This sign-in flow is not available with this server or client."
        case .stateMismatch: sentence = "The sign-in callback does not belong to this sign-in (its state does not match)."
        case .accessDenied: sentence = "The sign-in was declined."
        case .authorizationError: sentence = "The server refused the authorization request."
        case .tokenEndpointError: sentence = "The server's token endpoint refused the request."
        case .deviceAuthorizationError: sentence = "The server refused to start the device sign-in."
        case .expiredToken: sentence = "The sign-in code expired before it was approved."
        case .idTokenInvalid: sentence = "The server's ID token failed the \(idTokenCheck?.rawValue ?? "") check."
        case .timedOut: sentence = "The sign-in timed out waiting for the browser."
        case .cancelled: sentence = "The sign-in was cancelled."
        case .loopbackFailed: sentence = "The sign-in's local listener failed (\(loopbackFailure?.rawValue ?? "unknown"))."
        case .invalidResponse: sentence = "The server's answer could not be read."
        case .networkFailure: sentence = "The server could not be reached or answered with an error."
        case .frontEndFailed: sentence = "The application could not show the sign-in."
        case .dpopAlgorithmUnsupported: sentence = "The server does not take DPoP proofs signed with this session's key."
        case .dpopKeyUnusable: sentence = "The sign-in has no DPoP key to bind the session to."
        case .authenticationRequirementNotMet: sentence = "The new sign-in is not at the level the server asked for."
        default: sentence = "The sign-in failed (\(kind))."
        }
        var parts = [sentence]
        if let serverErrorCode, kind != .accessDenied || detail == nil { parts.append("Server code: \(serverErrorCode).") }
        if let detail { parts.append(detail) }
        return parts.joined(separator: " ")
    }

    /// `SignInError.tokenEndpointError(invalid_grant): …`, never a secret.
    public var description: String {
        var name = "SignInError.\(kind)"
        if let qualifier = serverErrorCode?.rawValue ?? idTokenCheck?.rawValue ?? loopbackFailure?.rawValue {
            name += "(\(qualifier))"
        }
        return name + ": " + (errorDescription ?? "")
    }

    /// ``description`` and the underlying error's description (itself redacted).
    public var debugDescription: String {
        description + (underlying.map { " Underlying: \(String(describing: $0))" } ?? "")
    }
}
