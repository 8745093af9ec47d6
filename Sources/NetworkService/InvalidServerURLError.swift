/// A base URL that cannot address an API server: not a URL, not http(s), without a host,
/// or carrying a query, fragment or user info.
public struct InvalidServerURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was given as the base URL.
    public let baseURL: String
    /// Why it was refused, in words.
    public let reason: String

    /// For example `invalid server URL "ftp://x": the scheme must be http or https`.
    public var description: String { "invalid server URL \"\(baseURL)\": \(reason)" }
}
