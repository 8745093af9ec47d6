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
    /// 500: the server failed.
    public static let `internal`: ServerErrorCode = "internal"

    /// The raw code.
    public var description: String { rawValue }
}

/// The error envelope of the API contract: `{"error": {"code": "...", "message": "..."}}`.
struct ServerErrorEnvelope: Decodable {
    struct Body: Decodable {
        let code: ServerErrorCode
        let message: String?
    }
    let error: Body
}
