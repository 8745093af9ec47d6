/// An access token, and how a request presents it.
///
/// A distinct type so that a token cannot be passed where another string is expected,
/// and so that printing it never shows the secret: `description`, `debugDescription` and
/// `dump(_:)` all print `AccessToken(<redacted>)`. The value itself is only read when the
/// `Authorization` header is built.
///
/// A token is a bearer token unless the server bound it to a DPoP key (RFC 9449: its token
/// answer said `token_type` `DPoP`); such a token is sent as `Authorization: DPoP <token>`,
/// with a proof, by a server value made with ``Server/proving(_:everyRequest:)``.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How a request presents an access token (its `Authorization` scheme).
    public enum Scheme: Sendable, Hashable {
        /// `Authorization: Bearer <token>` (RFC 6750): whoever holds the token may use it.
        case bearer
        /// `Authorization: DPoP <token>` and a DPoP proof with the token's hash (RFC 9449 §7):
        /// the token works only with the key it is bound to.
        case dpop
    }

    /// The token as the server issued it. Handle with care: never log it.
    public let rawValue: String
    /// How a request presents the token; ``Scheme/bearer`` unless the server bound it to a key.
    public let scheme: Scheme

    /// Wraps a token the server issued, presented with `scheme` (default ``Scheme/bearer``).
    public init(_ rawValue: String, scheme: Scheme = .bearer) {
        self.rawValue = rawValue
        self.scheme = scheme
    }

    /// `AccessToken(<redacted>)`.
    public var description: String { "AccessToken(<redacted>)" }
    /// `AccessToken(<redacted>)`.
    public var debugDescription: String { description }
    /// A mirror without the token.
    public var customMirror: Mirror { Mirror(self, children: ["rawValue": "<redacted>", "scheme": scheme]) }
}

extension AccessToken: Codable {
    /// Decodes a token from a JSON string, as a bearer token (the scheme is not encoded).
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the token as a JSON string, without its scheme.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
