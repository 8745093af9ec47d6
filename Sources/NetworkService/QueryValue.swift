public import Foundation

/// A value in a typed query parameter, rendered the same way wherever it appears.
///
/// Literals work directly (`.equal("id", 5)`, `.equal("nickname", "kim")`); dates render as
/// RFC 3339 UTC and UUIDs in their canonical form.
public struct QueryValue: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// The value as text, before percent-encoding.
    public let text: String

    /// A text value.
    public init(_ text: String) { self.text = text }
    /// An integer value.
    public init(_ value: Int) { self.text = String(value) }
    /// A Boolean value: `true` or `false`.
    public init(_ value: Bool) { self.text = value ? "true" : "false" }
    /// A UUID value, upper-case canonical form.
    public init(_ value: UUID) { self.text = value.uuidString }
    /// A date, as RFC 3339 UTC (`2026-11-22T10:00:00Z`).
    public init(_ value: Date) { self.text = JSONCoding.format(value) }

    /// A text literal.
    public init(stringLiteral value: String) { self.init(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self.init(value) }
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) { self.init(value) }

    /// The text.
    public var description: String { text }
}
