/// The head of an HTTP response: its status and header fields.
///
/// A response ``URLSessionTransport`` received keeps `URLSession`'s own response for its header
/// fields and reads them from it only when asked: ``value(forHeaderField:)`` looks up one field
/// there, and ``headerFields`` builds the dictionary on each read (on Linux, copying every field
/// out of `HTTPURLResponse.allHeaderFields` costs about 2 µs per response, and most calls read
/// one field or none).
public struct HTTPResponse: Sendable {
    /// The status code, for example 200.
    public var statusCode: Int
    /// Where the header fields are kept.
    private var fields: HTTPResponseHeaderFields

    /// Header fields, by name.
    public var headerFields: [String: String] {
        get { fields.dictionary }
        set { fields = .dictionary(newValue) }
    }

    /// Creates a response head.
    public init(statusCode: Int, headerFields: [String: String] = [:]) {
        self.statusCode = statusCode
        self.fields = .dictionary(headerFields)
    }

    /// A response head whose header fields stay in `fields` until asked for.
    init(statusCode: Int, fields: HTTPResponseHeaderFields) {
        self.statusCode = statusCode
        self.fields = fields
    }

    /// Whether the status is in 200...299.
    public var isSuccess: Bool { (200...299).contains(statusCode) }

    /// The value of a header field, looked up case-insensitively.
    public func value(forHeaderField name: String) -> String? {
        fields.value(forName: name)
    }
}

extension HTTPResponse: Equatable {
    /// Two heads are equal when their status codes and header fields are, wherever the fields are kept.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.headerFields == rhs.headerFields
    }
}
