public import Foundation

extension HTTPResponse {
    /// The `Date` header (RFC 9110 §6.6.1, an IMF-fixdate such as `Tue, 24 Nov 2026 03:55:47 GMT`):
    /// when the server made the response, by its clock; `nil` without one, or when it does not parse.
    public var date: Date? {
        guard let text = value(forHeaderField: "Date")?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
              text.utf8.count <= 64 else { return nil }
        return HTTPDate.parse(text)
    }
}
