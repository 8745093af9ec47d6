package import Foundation

/// A request that did not finish within its transport's timeout, counted from the moment it
/// was sent to the last byte of the answer (redirects included): the `underlying` error of a
/// ``TransportError`` of kind `.timedOut` when the transport's own deadline ended it (made by
/// ``TransportError/deadlineExceeded(timeout:)``).
///
/// A server that keeps a connection busy by sending a byte now and then cannot stretch it.
///
/// ```swift
/// let transport = URLSessionTransport(timeout: 10)
/// // a server sending one byte a second: TransportError(.timedOut) after 10 s,
/// // "the whole request took longer than its 10 s timeout"
/// ```
package struct RequestDeadlineExceeded: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The timeout, in seconds.
    package let timeout: TimeInterval

    /// Creates the error.
    package init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// For example `the whole request took longer than its 10 s timeout`.
    package var description: String {
        "the whole request took longer than its \(String(format: "%g", timeout)) s timeout"
    }

    /// The description.
    package var errorDescription: String? { description }
}
