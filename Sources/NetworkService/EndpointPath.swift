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

    /// Creates a path from segments that are not encoded yet.
    /// - Parameters:
    ///   - segments: The segments, each encoded on its own.
    ///   - hasTrailingSlash: Whether the path ends with `/` (`/o/token/`). Default `false`.
    public init(segments: [String], hasTrailingSlash: Bool = false) {
        self.segments = segments
        self.hasTrailingSlash = hasTrailingSlash
    }

    /// Creates a path from a constant such as `"/v1/posts"` or `"/o/token/"`, split at each
    /// `/`; a trailing slash is kept.
    public init(stringLiteral value: String) {
        let segments = value.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        self.init(segments: segments, hasTrailingSlash: !segments.isEmpty && value.hasSuffix("/"))
    }

    /// Appends one segment; a `/` inside `segment` is encoded, not a separator. A trailing
    /// slash of `path` becomes the separator before the new segment.
    public static func / (path: EndpointPath, segment: some CustomStringConvertible) -> EndpointPath {
        var path = path
        path.segments.append(segment.description)
        path.hasTrailingSlash = false
        return path
    }

    /// The encoded path, starting with `/`.
    public var rendered: String {
        "/" + segments.map(PercentEncoding.encode).joined(separator: "/") + (hasTrailingSlash ? "/" : "")
    }

    /// The encoded path.
    public var description: String { rendered }
}
