public import Foundation

/// Sends one HTTP request and returns the response body and head.
///
/// This is the only seam between the SDK and the network. ``URLSessionTransport`` is the
/// default; unit tests plug in a transport that plays the server; a front end can plug in
/// a faster client (async-http-client, say) without the SDK depending on it.
///
/// A transport returns every HTTP response, whatever its status: turning statuses into
/// errors is the SDK's job. It throws only when no response arrived, preferably a
/// ``TransportError`` so the SDK can tell a timeout from a dropped connection.
///
/// A transport that talks to the network itself also protects the caller from the server:
/// it follows a redirect only as ``RedirectPolicy`` allows (a credential never goes to
/// another origin: `.redirectRefused`), stops reading a body past its size limit
/// (`.responseTooLarge`), lets its timeout bound the whole request (`.timedOut`), and bounds
/// its settings with ``TransportLimits``. AppSDKTesting's `TransportConformance` checks all of
/// it against a loopback server.
///
/// ```swift
/// struct LoggingTransport: HTTPTransport {
///     let wrapped: any HTTPTransport
///     func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
///         print(request)            // redacts Authorization
///         return try await wrapped.send(request)
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the response head.
    func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse)
}
