import Foundation

/// A response whose body is larger than the transport accepts: the `underlying` error of a
/// ``TransportError`` of kind `.responseTooLarge` (made by
/// ``TransportError/responseTooLarge(limit:announcedLength:)``).
///
/// The transport stops reading as soon as it knows: at the head when `Content-Length`
/// announces too much, otherwise as soon as the bytes received pass ``limit``.
///
/// ```swift
/// let transport = URLSessionTransport(maximumResponseBytes: 1 << 20)
/// // a 2 MiB answer: TransportError(.responseTooLarge): "the response body is larger than the 1048576 bytes …"
/// ```
package struct ResponseTooLarge: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The largest body the transport accepts, in bytes.
    package let limit: Int
    /// What `Content-Length` announced, when that is how the transport knew; `nil` when the
    /// body passed the limit while it arrived.
    package let announcedLength: Int?

    /// Creates the error.
    package init(limit: Int, announcedLength: Int? = nil) {
        self.limit = limit
        self.announcedLength = announcedLength
    }

    /// For example `the response body is larger than the 65536 bytes the transport accepts (Content-Length 1073741824)`.
    package var description: String {
        let announced = announcedLength.map { " (Content-Length \($0))" } ?? ""
        return "the response body is larger than the \(limit) bytes the transport accepts\(announced)"
    }

    /// The description.
    package var errorDescription: String? { description }
}
