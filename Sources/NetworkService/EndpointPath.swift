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
public struct EndpointPath: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The segments, not encoded.
    public private(set) var segments: [String]

    /// Creates a path from segments that are not encoded yet.
    public init(segments: [String]) {
        self.segments = segments
    }

    /// Creates a path from a constant such as `"/v1/posts"`, split at each `/`.
    public init(stringLiteral value: String) {
        self.segments = value.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Appends one segment; a `/` inside `segment` is encoded, not a separator.
    public static func / (path: EndpointPath, segment: some CustomStringConvertible) -> EndpointPath {
        var path = path
        path.segments.append(segment.description)
        return path
    }

    /// The encoded path, starting with `/`.
    public var rendered: String {
        "/" + segments.map(PercentEncoding.encode).joined(separator: "/")
    }

    /// The encoded path.
    public var description: String { rendered }
}
