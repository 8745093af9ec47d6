/// A typed query parameter. Call sites pick an operator; the SDK writes the operator
/// strings and does the escaping, in ``render(_:)`` only.
///
/// | parameter | rendered |
/// |---|---|
/// | `.equal("id", 5)` | `id=eq.5` |
/// | `.notEqual("role", "admin")` | `role=neq.admin` |
/// | `.greaterThan("id", 5)`, `.greaterThanOrEqual`, `.lessThan`, `.lessThanOrEqual` | `id=gt.5`, `gte.`, `lt.`, `lte.` |
/// | `.in("id", [1, 2])` | `id=in.(1,2)` (values with `,()"\` or spaces are quoted) |
/// | `.order("createdAt", .descending)` | `order=createdAt.desc` (several orders join into one `order=a.asc,b.desc`) |
/// | `.threshold(100)`, `.pageSize(20)` | `threshold=100`, `pageSize=20` |
///
/// ```swift
/// QueryParameter.render([.threshold(120), .pageSize(20)])   // "threshold=120&pageSize=20"
/// ```
public enum QueryParameter: Sendable, Hashable {
    /// `field = value`.
    case equal(String, QueryValue)
    /// `field != value`.
    case notEqual(String, QueryValue)
    /// `field > value`.
    case greaterThan(String, QueryValue)
    /// `field >= value`.
    case greaterThanOrEqual(String, QueryValue)
    /// `field < value`.
    case lessThan(String, QueryValue)
    /// `field <= value`.
    case lessThanOrEqual(String, QueryValue)
    /// `field` is one of `values`.
    case `in`(String, [QueryValue])
    /// Sort by `field`.
    case order(String, SortDirection)
    /// Pagination: only items with an id below this one (exclusive).
    case threshold(Int)
    /// Pagination: at most this many items.
    case pageSize(Int)

    /// A sort direction for ``order(_:_:)``.
    public enum SortDirection: String, Sendable, Hashable {
        /// Smallest first.
        case ascending = "asc"
        /// Largest first.
        case descending = "desc"
    }

    /// Renders parameters as a percent-encoded query string (without the `?`), in the
    /// order given; `order` parameters are combined at the position of the first one.
    public static func render(_ parameters: [QueryParameter]) -> String {
        var pairs: [(name: String, value: String)] = []
        var orderIndex: Int?
        for parameter in parameters {
            switch parameter {
            case let .equal(field, value): pairs.append((field, "eq." + value.text))
            case let .notEqual(field, value): pairs.append((field, "neq." + value.text))
            case let .greaterThan(field, value): pairs.append((field, "gt." + value.text))
            case let .greaterThanOrEqual(field, value): pairs.append((field, "gte." + value.text))
            case let .lessThan(field, value): pairs.append((field, "lt." + value.text))
            case let .lessThanOrEqual(field, value): pairs.append((field, "lte." + value.text))
            case let .in(field, values):
                pairs.append((field, "in.(" + values.map { quotedListItem($0.text) }.joined(separator: ",") + ")"))
            case let .order(field, direction):
                let term = field + "." + direction.rawValue
                if let index = orderIndex {
                    pairs[index].value += "," + term
                } else {
                    orderIndex = pairs.count
                    pairs.append(("order", term))
                }
            case let .threshold(id): pairs.append(("threshold", String(id)))
            case let .pageSize(size): pairs.append(("pageSize", String(size)))
            }
        }
        return pairs
            .map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    /// Quotes a list item that holds a character with meaning inside `in.(…)`.
    /// By Unicode scalars, not `Character`s: a special character followed by a combining mark
    /// is one grapheme cluster, which a check by `Character` does not see (fuzzing found it).
    private static func quotedListItem(_ text: String) -> String {
        let special: Set<Unicode.Scalar> = [",", "(", ")", "\"", "\\", " "]
        guard text.unicodeScalars.contains(where: special.contains) || text.isEmpty else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return "\"" + String(escaped) + "\""
    }
}

extension [QueryParameter] {
    /// The pagination parameters of the API contract: `threshold` only when given,
    /// `pageSize` only when given (the server's default is 20).
    ///
    /// ```swift
    /// var query: [QueryParameter] { .page(threshold: threshold, pageSize: pageSize) }
    /// ```
    public static func page(threshold: Int?, pageSize: Int?) -> [QueryParameter] {
        var parameters: [QueryParameter] = []
        if let threshold { parameters.append(.threshold(threshold)) }
        if let pageSize { parameters.append(.pageSize(pageSize)) }
        return parameters
    }
}
