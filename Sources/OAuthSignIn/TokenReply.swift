import Foundation
import NetworkService
import SessionEngine

/// The token endpoint's successful answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
struct TokenReply: Sendable {
    /// What the server said the access token is (`token_type`).
    enum TokenType: Sendable, Hashable {
        /// `Bearer` (in any case), or no `token_type`.
        case bearer
        /// `DPoP` (in any case): bound to the key the request proved (RFC 9449 §5), which is
        /// accepted only in answer to a request that carried a proof.
        case dpop
    }

    /// The tokens to keep. A reply without a refresh token keeps `previous` (a refresh the
    /// server did not rotate), else the empty string: see ``/SessionEngine/Tokens`` and
    /// ``SessionService/Configuration/clientCredentials(_:scopes:)`` for why a session without
    /// a refresh token stores an empty one.
    let tokens: Tokens
    /// `id_token`, when the server sent one.
    let idToken: String?
    /// `scope`, when the server said.
    let scope: String?
    /// The access token's type: a request that proved a key may still get a bearer token
    /// back, which the caller decides about (RFC 9449 §5's "bearer answer").
    let tokenType: TokenType
    /// The answer's `Date` header (the server's clock), also in ``/SessionEngine/Tokens/serverDate``.
    var serverDate: Date? { tokens.serverDate }
    /// When the request that got this answer was sent, by the provider's ``SignInClock``: a
    /// sign-in counts the tokens' lifetime from then, as a refresh does (the server issued
    /// them later, so the expiry here is never later than the server's).
    var sentAt: Date?

    init(tokens: Tokens, idToken: String?, scope: String?, tokenType: TokenType = .bearer) {
        self.tokens = tokens
        self.idToken = idToken
        self.scope = scope
        self.tokenType = tokenType
    }

    /// The reply in `object`, whose answer carried the `Date` header `serverDate`, to a request
    /// that carried a DPoP proof when `proved`; `nil` when ``problem(in:proved:)`` finds one.
    init?(_ object: [String: JSONValue], keepingRefreshToken previous: String? = nil, serverDate: Date? = nil,
          proved: Bool = false) {
        guard Self.problem(in: object, proved: proved) == nil, let access = object["access_token"]?.string else { return nil }
        let rotated = object["refresh_token"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        scope = object["scope"]?.string
        idToken = object["id_token"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let type = object["token_type"]?.string
        tokenType = type.map(TokenSyntax.isDPoP) == true ? .dpop : .bearer
        var tokens = Tokens(accessToken: AccessToken(access), refreshToken: rotated ?? previous ?? "",
                            tokenType: type ?? "Bearer",
                            expiresIn: Self.lifetime(object["expires_in"]), scope: scope)
        tokens.serverDate = serverDate
        self.tokens = tokens
    }

    /// The access token as a request presents it: ``/NetworkService/AccessToken/Scheme/dpop``
    /// for a DPoP-bound one.
    var accessToken: AccessToken {
        AccessToken(tokens.accessToken.rawValue, scheme: tokenType == .dpop ? .dpop : .bearer)
    }

    /// Why `object` is no token reply to keep, or `nil`: no `access_token` string, a token
    /// outside visible ASCII, or a `token_type` other than Bearer (``/SessionEngine/TokenSyntax``),
    /// or `DPoP` when the request that got it carried a proof (`proved`). Names fields, never
    /// quotes a value.
    static func problem(in object: [String: JSONValue], proved: Bool = false) -> String? {
        guard let access = object["access_token"]?.string else { return "it has no access_token" }
        if let problem = TokenSyntax.problem(withToken: access, named: "access_token") { return problem }
        if let refresh = object["refresh_token"]?.string, !refresh.isEmpty,
           let problem = TokenSyntax.problem(withToken: refresh, named: "refresh_token") { return problem }
        switch object["token_type"] {
        case nil, .null?: return nil
        case let .string(type)?: return TokenSyntax.problem(withTokenType: type, proved: proved)
        default: return "its token_type is not a string"
        }
    }

    /// `expires_in` as a number or numeric string, kept only within 1 s … 10 years (anything
    /// else is unknown: the engine then reads the JWT or waits for a 401).
    static func lifetime(_ value: JSONValue?) -> TimeInterval? {
        let seconds: Double?
        switch value {
        case let .number(number)?: seconds = number
        case let .string(text)?: seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 1, seconds <= 315_360_000 else { return nil }
        return seconds
    }
}

extension SignInError {
    /// The sign-in error for a failed request to the authorization server: an OAuth error code
    /// becomes `serverCodeKind` with that code, anything else `.networkFailure` (or
    /// `.invalidResponse`, `.cancelled`); the ``/NetworkService/NetworkError`` stays underneath.
    static func from(_ error: NetworkError, endpoint: String,
                     serverCodeKind: (ServerErrorCode) -> SignInError = { .tokenEndpointError($0) }) -> SignInError {
        switch error.kind {
        case .cancelled:
            return SignInError.cancelled.with(detail: "The request to the \(endpoint) was cancelled.", underlying: error)
        case .insecureURL:
            return SignInError.insecureURL.with(detail: "The \(endpoint) was not used: \(error.serverMessage ?? "its URL is not allowed").",
                                                underlying: error)
        case .decoding:
            // The error says why (not JSON, or a JSON object whose fields cannot be used).
            return SignInError.invalidResponse.with(detail: "The \(endpoint)'s answer could not be used: \(error)", underlying: error)
        case .httpStatus:
            guard let code = error.serverErrorCode else { fallthrough }
            let status = error.statusCode.map { "HTTP \($0)" } ?? "an error"
            let message = error.serverMessage.map { ": \($0)" } ?? "."
            return serverCodeKind(code).with(detail: "The \(endpoint) answered \(status) \(code)\(message)", underlying: error)
        default:
            return SignInError.networkFailure.with(detail: "The \(endpoint) could not be used: \(error)", underlying: error)
        }
    }
}
