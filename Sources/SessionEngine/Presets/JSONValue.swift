/// Any JSON value, for replies whose shape is only known by field names at run time.
enum JSONValue: Decodable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: JSONValue])
    case array([JSONValue])
    case null

    init(from decoder: any Decoder) throws {
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

    /// The value at a dotted key path such as `tokens.accessToken`.
    subscript(keyPath: String) -> JSONValue? {
        var value: JSONValue? = self
        for key in keyPath.split(separator: ".") {
            guard case let .object(object)? = value else { return nil }
            value = object[String(key)]
        }
        return value
    }

    /// The string, if this is one.
    var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number, if this is one (or a string holding one).
    var number: Double? {
        switch self {
        case let .number(value): value
        case let .string(text): Double(text)
        default: nil
        }
    }
}
