public import Foundation
public import NetworkService

/// The tokens a sign-in or a refresh returns, whatever the server: the access token, the
/// refresh token to keep, and the access token's expiry when the server says it.
///
/// Expiry is optional. When the server sends neither ``expiresIn`` nor ``expiresAt``, the
/// service reads `exp` (and `iat`) from the access token if it is a JWT (unverified: only
/// to schedule refreshes, never trusted for anything else), and otherwise works with an
/// unknown expiry: it refreshes when the server answers 401.
///
/// Printing it never shows the tokens.
///
/// ```swift
/// let tokens = Tokens(accessToken: AccessToken(reply.access), refreshToken: reply.refresh)
/// try await service.startSession(tokens: tokens, accountID: "kim")
/// ```
public struct Tokens: Codable, Sendable, Equatable {
    /// The bearer token for API calls.
    public let accessToken: AccessToken
    /// The refresh token to keep: the rotated one, or the old one when the server kept it.
    public let refreshToken: String
    /// The token type, `"Bearer"`.
    public let tokenType: String
    /// Seconds the access token is valid for, counted from when it was issued, if the server said.
    public let expiresIn: TimeInterval?
    /// When the access token expires by the server's clock, if the server said.
    public let expiresAt: Date?
    /// The granted scope, if the server said (OAuth 2.0).
    public let scope: String?
    /// When the server answered, by its clock (the response's `Date` header), if known. The
    /// presets fill it in; the service uses it to read ``expiresAt`` and a JWT's `exp` (server
    /// times) against this device's clock when the two disagree.
    public var serverDate: Date?

    /// Creates tokens, for example in a custom ``TokenRefresher`` for a server that answers
    /// in another shape.
    public init(accessToken: AccessToken, refreshToken: String, tokenType: String = "Bearer",
                expiresIn: TimeInterval? = nil, expiresAt: Date? = nil, scope: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.scope = scope
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, tokenType, expiresIn, expiresAt, scope, serverDate
    }

    /// Decodes tokens, refusing an empty access or refresh token, one with a character outside
    /// visible ASCII, and a token type other than Bearer: a reply carrying one could only break
    /// the session it would replace. (`DPoP` is understood only in answer to a request that
    /// carried a DPoP proof, which a decoder cannot know: the presets read such answers knowing it.)
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, checksTokenType: true)
    }

    /// ``init(from:)``, with the token type left unchecked unless `checksTokenType`: ``Reply``
    /// checks it once it knows whether the request carried a proof.
    private init(from decoder: any Decoder, checksTokenType: Bool) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(AccessToken.self, forKey: .accessToken)
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        if let problem = TokenSyntax.problem(withToken: accessToken.rawValue, named: "access token") {
            throw DecodingError.dataCorruptedError(forKey: .accessToken, in: container, debugDescription: problem)
        }
        if let problem = TokenSyntax.problem(withToken: refreshToken, named: "refresh token") {
            throw DecodingError.dataCorruptedError(forKey: .refreshToken, in: container, debugDescription: problem)
        }
        tokenType = try container.decode(String.self, forKey: .tokenType)
        if checksTokenType, let problem = TokenSyntax.problem(withTokenType: tokenType) {
            throw DecodingError.dataCorruptedError(forKey: .tokenType, in: container, debugDescription: problem)
        }
        expiresIn = try container.decodeIfPresent(TimeInterval.self, forKey: .expiresIn)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        serverDate = try container.decodeIfPresent(Date.self, forKey: .serverDate)
    }
}

extension Tokens {
    /// Tokens as a server's answer holds them, read with every check of ``init(from:)`` but the
    /// token type's, which depends on the request: `DPoP` is understood only in answer to a
    /// request that carried a DPoP proof (RFC 9449 §5), `Bearer` (or none) always.
    ///
    /// ```swift
    /// let reply: Tokens.Reply = try await server.send(endpoint)
    /// let tokens = try reply.tokens(proved: server.provesEveryRequest)
    /// ```
    package struct Reply: Decodable, Sendable {
        private let unchecked: Tokens

        /// Reads the tokens as ``Tokens/init(from:)`` does, all but their type checked.
        package init(from decoder: any Decoder) throws {
            unchecked = try Tokens(from: decoder, checksTokenType: false)
        }

        /// The tokens, when their type can be used: `Bearer` in any case, or `DPoP` in any case
        /// when `proved` (the request carried a DPoP proof).
        /// - Throws: ``TokenSyntax/Refusal`` naming the token type (never a token) otherwise.
        package func tokens(proved: Bool) throws(TokenSyntax.Refusal) -> Tokens {
            if let problem = TokenSyntax.problem(withTokenType: unchecked.tokenType, proved: proved) {
                throw TokenSyntax.Refusal(reason: problem)
            }
            return unchecked
        }
    }
}

extension Tokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Tokens(<redacted>, expiresIn: 900)`, or `expiresIn: unknown`.
    public var description: String {
        "Tokens(<redacted>, expiresIn: \(expiresIn.map { String(format: "%g", $0) } ?? "unknown"))"
    }
    /// The same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the tokens.
    public var customMirror: Mirror {
        Mirror(self, children: ["expiresIn": expiresIn as Any, "expiresAt": expiresAt as Any, "scope": scope as Any])
    }
}
