/// The head of an HTTP response: its status and header fields.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, for example 200.
    public var statusCode: Int
    /// Header fields, by name.
    public var headerFields: [String: String]

    /// Creates a response head.
    public init(statusCode: Int, headerFields: [String: String] = [:]) {
        self.statusCode = statusCode
        self.headerFields = headerFields
    }

    /// Whether the status is in 200...299.
    public var isSuccess: Bool { (200...299).contains(statusCode) }

    /// The value of a header field, looked up case-insensitively.
    public func value(forHeaderField name: String) -> String? {
        headerFields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
