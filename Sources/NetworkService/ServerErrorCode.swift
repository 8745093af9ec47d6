/// An error code the server sent in `{"error": {"code": …}}`.
///
/// An open set: the known codes are static values, and a code this SDK version does not
/// know still decodes (and compares) as itself, so a new server code never breaks callers.
///
/// ```swift
/// if error.serverErrorCode == .emailTaken { … }
/// ```
public struct ServerErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    /// The code as sent, for example `"token_expired"`.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a code literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// Decodes a code from a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    /// Encodes the code as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// 400: a field is missing or invalid; the message names it.
    public static let invalidRequest: ServerErrorCode = "invalid_request"
    /// 401: wrong email or password.
    public static let invalidCredentials: ServerErrorCode = "invalid_credentials"
    /// 401: the access token has expired.
    public static let tokenExpired: ServerErrorCode = "token_expired"
    /// 401: the access token is malformed, badly signed or revoked.
    public static let invalidToken: ServerErrorCode = "invalid_token"
    /// 401: the refresh token is unknown, expired or revoked.
    public static let invalidRefreshToken: ServerErrorCode = "invalid_refresh_token"
    /// 401: the refresh token was already used; the server revoked its whole session family.
    public static let refreshTokenReused: ServerErrorCode = "refresh_token_reused"
    /// 403: the member may not do this.
    public static let forbidden: ServerErrorCode = "forbidden"
    /// 404: no such resource.
    public static let notFound: ServerErrorCode = "not_found"
    /// 409: the email address already has an account.
    public static let emailTaken: ServerErrorCode = "email_taken"
    /// 429: too many attempts (sign-in, sign-up); wait ``NetworkError/retryAfter`` seconds.
    public static let rateLimited: ServerErrorCode = "rate_limited"
    /// 500: the server failed.
    public static let `internal`: ServerErrorCode = "internal"

    // OAuth 2.0 (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7009 §2.2.1)

    /// OAuth 2.0: the grant (a refresh token, a password, a code) is invalid, expired,
    /// revoked or was issued to another client. At the token endpoint, the session is over.
    public static let invalidGrant: ServerErrorCode = "invalid_grant"
    /// OAuth 2.0: the client could not be authenticated (unknown client, wrong secret).
    public static let invalidClient: ServerErrorCode = "invalid_client"
    /// OAuth 2.0: the client may not use this grant type.
    public static let unauthorizedClient: ServerErrorCode = "unauthorized_client"
    /// OAuth 2.0: the server does not support the grant type (or could not read it, as from a JSON body).
    public static let unsupportedGrantType: ServerErrorCode = "unsupported_grant_type"
    /// OAuth 2.0: the requested scope is invalid or exceeds what was granted.
    public static let invalidScope: ServerErrorCode = "invalid_scope"
    /// RFC 6750: the access token lacks the scope the resource needs (403).
    public static let insufficientScope: ServerErrorCode = "insufficient_scope"
    /// RFC 9470 §3: the access token is good, but the user's authentication behind it is not
    /// strong or recent enough for this resource (401, with `acr_values` and/or `max_age` in
    /// the challenge): sign in again at that level; refreshing cannot help (``StepUpChallenge``).
    public static let insufficientUserAuthentication: ServerErrorCode = "insufficient_user_authentication"
    /// RFC 7009: the server does not revoke this type of token.
    public static let unsupportedTokenType: ServerErrorCode = "unsupported_token_type"

    // DPoP (RFC 9449)

    /// RFC 9449 §8, §9: the server wants a DPoP proof carrying the nonce it sent in its
    /// `DPoP-Nonce` header (400 from a token endpoint, 401 from a resource); the same request
    /// with a new proof holding that nonce is expected.
    public static let useDPoPNonce: ServerErrorCode = "use_dpop_nonce"
    /// RFC 9449 §5, §7.1: the DPoP proof is missing or invalid (its signature, key, method,
    /// URL, time or replay check failed).
    public static let invalidDPoPProof: ServerErrorCode = "invalid_dpop_proof"

    // Django REST framework

    /// djangorestframework-simplejwt (401): the token, access or refresh, is invalid or expired.
    public static let tokenNotValid: ServerErrorCode = "token_not_valid"

    /// The raw code.
    public var description: String { rawValue }
}

