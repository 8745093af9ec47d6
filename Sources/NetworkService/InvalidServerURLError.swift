/// A base URL that cannot address an API server: not a URL, not http(s), without a host,
/// or carrying a query, fragment or user info.
///
/// Its description shows the URL without user info, query or fragment, which may hold secrets.
public struct InvalidServerURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was given as the base URL.
    public let baseURL: String
    /// Why it was refused, in words.
    public let reason: String

    /// For example `invalid server URL "ftp://x": the scheme must be http or https`.
    public var description: String { "invalid server URL \"\(Self.shown(baseURL))\": \(reason)" }

    /// The URL with user info, query and fragment replaced by `<redacted>`.
    static func shown(_ text: String) -> String {
        var shown = text
        if let schemeEnd = shown.range(of: "://"), let at = shown[schemeEnd.upperBound...].firstIndex(of: "@") {
            let hostStart = shown[schemeEnd.upperBound..<at].contains("/") ? nil : at
            if let hostStart { shown.replaceSubrange(schemeEnd.upperBound...hostStart, with: "<redacted>@") }
        }
        if let query = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            shown.replaceSubrange(query..., with: String(shown[query]) + "<redacted>")
        }
        return shown
    }
}
