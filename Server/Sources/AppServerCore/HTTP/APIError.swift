public import Hummingbird

/// An error the API reports to the client: an HTTP status, a stable `code` and a message.
///
/// Thrown by handlers; ``ErrorMiddleware`` turns it into `{"error": {"code", "message"}}`.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    /// The stable error codes of the contract.
    public enum Code: String, Sendable {
        /// 400: a field is missing or invalid; the message names it.
        case invalidRequest = "invalid_request"
        /// 401: wrong email or password.
        case invalidCredentials = "invalid_credentials"
        /// 401: the access token has expired.
        case tokenExpired = "token_expired"
        /// 401: the access token is missing, malformed, badly signed or revoked.
        case invalidToken = "invalid_token"
        /// 401: the refresh token is unknown, expired or revoked.
        case invalidRefreshToken = "invalid_refresh_token"
        /// 401: the refresh token was already used; its session family is now revoked.
        case refreshTokenReused = "refresh_token_reused"
        /// 400 at a token route, 401 at a resource: the DPoP proof was refused, or it is not
        /// signed by the key the session is bound to (RFC 9449 §7.1).
        case invalidDPoPProof = "invalid_dpop_proof"
        /// 400 at a token route, 401 at a resource: retry with the nonce in `DPoP-Nonce`
        /// (RFC 9449 §8, §9).
        case useDPoPNonce = "use_dpop_nonce"
        /// 403: the caller may not do this.
        case forbidden
        /// 404: no such resource (or route).
        case notFound = "not_found"
        /// 409: the email address belongs to another member.
        case emailTaken = "email_taken"
        /// 429: too many sign-in failures or sign-ups; `Retry-After` says how many seconds to wait.
        case rateLimited = "rate_limited"
        /// 500: the server failed.
        case `internal`
    }

    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The error code.
    public let code: Code
    /// A human-readable message (never contains a secret).
    public let message: String
    /// The `WWW-Authenticate` header value, for access-token failures.
    public let wwwAuthenticate: String?
    /// The `Retry-After` header value in whole seconds, for `rate_limited`.
    public let retryAfter: Int?

    /// Creates an error.
    public init(status: HTTPResponse.Status, code: Code, message: String, wwwAuthenticate: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.wwwAuthenticate = wwwAuthenticate
        self.retryAfter = retryAfter
    }

    /// A description for logs.
    public var description: String { "\(status.code) \(code.rawValue): \(message)" }

    /// Renders the JSON error body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(ErrorBodyDTO(code: code.rawValue, message: message), status: status)
        if let wwwAuthenticate {
            response.headers[.wwwAuthenticate] = wwwAuthenticate
        }
        if let retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }
}

extension APIError {
    /// 400 `invalid_request`; the message names the field.
    public static func invalidRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: .invalidRequest, message: message)
    }

    /// 401 `invalid_credentials`, the same for an unknown email and a wrong password.
    public static let invalidCredentials = APIError(
        status: .unauthorized, code: .invalidCredentials, message: "The email or password is incorrect."
    )

    /// 401 `invalid_token` for a request without an `Authorization` header.
    public static let missingToken = APIError(
        status: .unauthorized, code: .invalidToken, message: "This route needs a bearer access token.",
        wwwAuthenticate: "Bearer"
    )

    /// 401 `invalid_token` for a token that is malformed, badly signed or revoked.
    public static func invalidToken(_ message: String) -> APIError {
        APIError(
            status: .unauthorized, code: .invalidToken, message: message,
            wwwAuthenticate: #"Bearer error="invalid_token", error_description="\#(message)""#
        )
    }

    /// 401 `token_expired`.
    public static let tokenExpired = APIError(
        status: .unauthorized, code: .tokenExpired, message: "The access token has expired.",
        wwwAuthenticate: #"Bearer error="invalid_token", error_description="The access token has expired.""#
    )

    /// 401 `invalid_refresh_token`.
    public static let invalidRefreshToken = APIError(
        status: .unauthorized, code: .invalidRefreshToken, message: "The refresh token is unknown, expired or revoked."
    )

    /// 401 `refresh_token_reused`.
    public static let refreshTokenReused = APIError(
        status: .unauthorized, code: .refreshTokenReused,
        message: "The refresh token was already used; the session has been revoked."
    )

    /// 401 `invalid_dpop_proof` for a refresh of a DPoP-bound family without a proof made with
    /// its key; nothing was changed (RFC 9449 §5).
    static let refreshWithoutBoundKey = APIError(
        status: .unauthorized, code: .invalidDPoPProof,
        message: "The refresh token is bound to a DPoP key; the request needs a proof made with that key."
    )

    /// 403 `forbidden`.
    public static func forbidden(_ message: String) -> APIError {
        APIError(status: .forbidden, code: .forbidden, message: message)
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: .notFound, message: message)
    }

    /// 404 for `/v1/members/me` when the caller's account no longer exists; ``AuthMiddleware``
    /// turns it into 401 `invalid_token` (the account was deleted while the request ran).
    static let memberGone = APIError.notFound("The member no longer exists.")

    /// 409 `email_taken`.
    public static let emailTaken = APIError(
        status: .conflict, code: .emailTaken, message: "This email address is already registered."
    )

    /// 429 `rate_limited` with `Retry-After: <seconds>`.
    public static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(
            status: .tooManyRequests, code: .rateLimited,
            message: "Too many attempts; try again in \(seconds) seconds.", retryAfter: seconds
        )
    }

    /// 500 `internal`.
    public static func `internal`(_ message: String = "The server failed to handle the request.") -> APIError {
        APIError(status: .internalServerError, code: .internal, message: message)
    }
}
