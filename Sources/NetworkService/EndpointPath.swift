/// The path of an endpoint as a list of segments, each percent-encoded when rendered.
///
/// Constant parts come from a string literal; values are appended with `/` and become one
/// segment each, whatever characters they hold:
///
/// ```swift
/// let path: EndpointPath = "/v1/posts" / postID / "comments"
/// path.rendered   // "/v1/posts/42/comments"
/// ("/v1/tags" / "a/b c").rendered   // "/v1/tags/a%2Fb%20c"
/// ```
///
/// A trailing slash in a constant is kept, since servers such as Django treat `/o/token/`
/// and `/o/token` as different routes (and answer the second with a redirect):
///
/// ```swift
/// ("/o/token/" as EndpointPath).rendered   // "/o/token/"
/// ```
public struct EndpointPath: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The segments, not encoded.
    public private(set) var segments: [String]
    /// Whether the rendered path ends with `/` after its last segment.
    public private(set) var hasTrailingSlash: Bool
    /// The encoded path, starting with `/`: rendered once when the path is made (an endpoint's
    /// `path` is usually a literal made on every call), never again per request.
    public private(set) var rendered: String

    /// Creates a path from segments that are not encoded yet.
    /// - Parameters:
    ///   - segments: The segments, each encoded on its own.
    ///   - hasTrailingSlash: Whether the path ends with `/` (`/o/token/`). Default `false`.
    public init(segments: [String], hasTrailingSlash: Bool = false) {
        self.segments = segments
        self.hasTrailingSlash = hasTrailingSlash
        self.rendered = Self.render(segments, hasTrailingSlash: hasTrailingSlash)
    }

    /// Creates a path from a constant such as `"/v1/posts"` or `"/o/token/"`, split at each
    /// `/`; a trailing slash is kept.
    public init(stringLiteral value: String) {
        let segments = Self.split(value)
        self.segments = segments
        self.hasTrailingSlash = !segments.isEmpty && value.hasSuffix("/")
        // A literal already in its rendered form (the common case: `/v1/posts/42`) is its own
        // rendering; anything else (no leading slash, `//`, a character to encode) is rendered.
        self.rendered = Self.isRendered(value) ? value : Self.render(segments, hasTrailingSlash: hasTrailingSlash)
    }

    /// Appends one segment; a `/` inside `segment` is encoded, not a separator. A trailing
    /// slash of `path` becomes the separator before the new segment.
    public static func / (path: EndpointPath, segment: some CustomStringConvertible) -> EndpointPath {
        var path = path
        let text = segment.description
        var rendered = path.segments.isEmpty ? "" : path.rendered
        if path.hasTrailingSlash, !path.segments.isEmpty { rendered.removeLast() }
        rendered += "/"
        rendered += PercentEncoding.encode(text)
        path.segments.append(text)
        path.hasTrailingSlash = false
        path.rendered = rendered
        return path
    }

    /// The non-empty parts of `text` between slashes, in one allocation (an endpoint's `path`
    /// is usually a literal made on every call; `split` then `map` took four).
    static func split(_ text: String) -> [String] {
        let slash = UInt8(ascii: "/")
        var segments: [String] = []
        segments.reserveCapacity(text.utf8.reduce(1) { $1 == slash ? $0 + 1 : $0 })
        var start = text.utf8.startIndex
        for index in text.utf8.indices where text.utf8[index] == slash {
            if start < index { segments.append(String(text[start..<index])) }
            start = text.utf8.index(after: index)
        }
        if start < text.utf8.endIndex { segments.append(String(text[start...])) }
        return segments
    }

    /// The rendering of `segments`: each percent-encoded, joined by `/` after a leading `/`,
    /// and a `/` at the end when `hasTrailingSlash`.
    package static func render(_ segments: [String], hasTrailingSlash: Bool) -> String {
        "/" + segments.map(PercentEncoding.encode).joined(separator: "/") + (hasTrailingSlash ? "/" : "")
    }

    /// Whether `text` renders as itself: it starts with `/`, has no empty segment (`//`), and
    /// every other byte is unreserved (RFC 3986), so no segment needs encoding.
    package static func isRendered(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: "/") {
                if previous == byte { return false }
            } else if index == 0 || !PercentEncoding.isUnreserved(byte) {
                return false
            }
            previous = byte
        }
        return previous != 0
    }

    /// The encoded path.
    public var description: String { rendered }
}
