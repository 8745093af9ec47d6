/// A bearer access token.
///
/// A distinct type so that a token cannot be passed where another string is expected,
/// and so that printing it never shows the secret: `description`, `debugDescription` and
/// `dump(_:)` all print `AccessToken(<redacted>)`. The value itself is only read when the
/// `Authorization` header is built.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token as the server issued it. Handle with care: never log it.
    public let rawValue: String

    /// Wraps a token the server issued.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `AccessToken(<redacted>)`.
    public var description: String { "AccessToken(<redacted>)" }
    /// `AccessToken(<redacted>)`.
    public var debugDescription: String { description }
    /// A mirror without the token.
    public var customMirror: Mirror { Mirror(self, children: ["rawValue": "<redacted>"]) }
}

extension AccessToken: Codable {
    /// Decodes a token from a JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the token as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
