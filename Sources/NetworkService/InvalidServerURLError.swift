/// A base URL that cannot address an API server: not a URL, not http(s), without a host,
/// or carrying a query, fragment or user info. The `underlying` error of a ``NetworkError``
/// of kind `.invalidServerURL`, which ``Server/init(baseURL:transport:allowsPlainHTTP:)-(String,_,_)`` throws.
///
/// Its description shows the URL without user info, query or fragment, which may hold secrets.
struct InvalidServerURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was given as the base URL.
    let baseURL: String
    /// Why it was refused, in words.
    let reason: String

    /// For example `invalid server URL "ftp://x": the scheme must be http or https`.
    var description: String { "invalid server URL \"\(Self.shown(baseURL))\": \(reason)" }

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

extension NetworkError {
    /// The error ``Server``'s initializers throw for a base URL they refuse: kind
    /// `.invalidServerURL`, the reason in ``serverMessage``, the URL (redacted) in the description.
    static func invalidServerURL(_ baseURL: String, reason: String) -> NetworkError {
        NetworkError(kind: .invalidServerURL, method: .get, path: "", serverMessage: reason,
                     underlying: InvalidServerURLError(baseURL: baseURL, reason: reason))
    }
}
