public import Foundation

/// A fully built HTTP request, as a transport receives it.
///
/// Its `description` shows the method, URL and header names; the value of
/// `Authorization` (and of any header that carries a credential) is never shown.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute URL, path and query already percent-encoded.
    public var url: URL
    /// Header fields, by name.
    public var headerFields: [String: String]
    /// The body bytes, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: HTTPMethod, url: URL, headerFields: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
    }

    /// The value of a header field, looked up case-insensitively.
    public func value(forHeaderField name: String) -> String? {
        headerFields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// `GET https://host/v1/posts?pageSize=20 [Accept, Authorization: <redacted>]`; credentials redacted.
    public var description: String {
        let headers = headerFields.keys.sorted().map { name in
            Redaction.isSensitiveHeader(name) ? "\(name): <redacted>" : "\(name): \(headerFields[name] ?? "")"
        }
        let body = body.map { " body: \($0.count) bytes" } ?? ""
        return "\(method.rawValue) \(url.absoluteString) [\(headers.joined(separator: ", "))]\(body)"
    }

    /// The same as `description`.
    public var debugDescription: String { description }
}

extension HTTPRequest: CustomReflectable {
    /// A mirror that shows the redacted description only, so `dump(_:)` leaks nothing.
    public var customMirror: Mirror { Mirror(self, children: ["request": description]) }
}
