import Foundation

/// Any JSON value, for replies whose shape is only known by field names at run time: a claim
/// of an ID token or a field of a userinfo reply (OAuthSignIn), a field of a JSON server's
/// token reply (``JSONTokenRefresh``).
///
/// ```swift
/// let info = try await provider.userInfo(accessToken: token)
/// let email = info["email"]?.string
/// ```
public enum JSONValue: Codable, Sendable, Hashable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An object.
    case object([String: JSONValue])
    /// An array.
    case array([JSONValue])
    /// `null`.
    case null

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it came from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The value of `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(object) = self else { return nil }
        return object[key]
    }

    /// The string, if this is one.
    public var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number, if this is one.
    public var number: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    /// The Boolean, if this is one.
    public var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var object: [String: JSONValue]? {
        if case let .object(value) = self { return value }
        return nil
    }

    /// The array, if this is one.
    public var array: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The value at a dotted key path such as `tokens.accessToken`, each part a key of an object.
    func value(atPath keyPath: String) -> JSONValue? {
        var value: JSONValue? = self
        for key in keyPath.split(separator: ".") {
            guard case let .object(object)? = value else { return nil }
            value = object[String(key)]
        }
        return value
    }

    /// The number, if this is one or a string holding one (`"3600"`, as some servers send `expires_in`).
    var numberOrNumericString: Double? {
        switch self {
        case let .number(value): value
        case let .string(text): Double(text)
        default: nil
        }
    }
}
