public import Foundation
public import NetworkService
import Testing

/// The behaviour every ``NetworkService/HTTPTransport`` must show, as scenarios that run
/// against a ``LoopbackHTTPServer``. The SDK's own transports run every one of them; run them
/// against a transport of your own to show it behaves as the SDK expects.
///
/// Each scenario is an `async throws` function that records its failures with `#expect`,
/// so it must be called from a Swift Testing test. Give every scenario its own `@Test` in
/// your transport's suite, so each shows as a test of its own.
///
/// ```swift
/// @Suite("URLSession transport against a loopback HTTP server")
/// struct URLSessionTransportTests {
///     let conformance = TransportConformance { timeout, maximumResponseBytes in
///         URLSessionTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
///     }
///
///     @Test("a 401 or a 500 is returned, not thrown")
///     func errorStatuses() async throws { try await conformance.errorStatusesAreReturnedNotThrown() }
/// }
/// ```
public struct TransportConformance: Sendable {
    /// Makes the transport under test, whose requests take `timeout` seconds at most and
    /// whose responses have at most `maximumResponseBytes` of body. It is called once or
    /// twice per scenario; it may return the same client each time.
    public typealias MakeTransport = @Sendable (_ timeout: TimeInterval, _ maximumResponseBytes: Int) -> any HTTPTransport

    let makeTransport: MakeTransport

    /// A suite for the transports `makeTransport` makes.
    public init(_ makeTransport: @escaping MakeTransport) {
        self.makeTransport = makeTransport
    }

    /// A JWT-shaped access token the scenarios send (and look for in errors).
    static let token = AccessToken("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl")
    /// A secret too short for the SDK's redaction of token-like runs: only never printing
    /// the header keeps it out of an error.
    static let shortSecret = "s3cr3t-9"

    /// The transport under test, with a 5-second timeout and the default size limit unless
    /// told otherwise.
    func transport(timeout: TimeInterval = 5,
                   maximumResponseBytes: Int = TransportLimits.defaultMaximumResponseBytes) -> any HTTPTransport {
        makeTransport(timeout, maximumResponseBytes)
    }

    /// A `Server` over `http` and the transport under test.
    func server(_ http: LoopbackHTTPServer, timeout: TimeInterval = 5,
                maximumResponseBytes: Int = TransportLimits.defaultMaximumResponseBytes) throws -> Server {
        try Server(baseURL: http.baseURL, transport: transport(timeout: timeout, maximumResponseBytes: maximumResponseBytes))
    }

    /// A request to `target` (a path and query) on `baseURL`.
    func request(_ method: HTTPMethod, _ baseURL: String, _ target: String,
                 headers: [String: String] = [:], body: Data? = nil) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: baseURL + target)!, headerFields: headers, body: body)
    }

    /// Sends `request` and returns the `TransportError` it threw; records an issue when it
    /// answered or threw something else.
    func transportError(sending request: HTTPRequest, through transport: any HTTPTransport) async -> TransportError? {
        do {
            let (_, response) = try await transport.send(request)
            Issue.record("expected a TransportError, got HTTP \(response.statusCode)")
        } catch let error as TransportError {
            return error
        } catch {
            Issue.record("expected a TransportError, got \(type(of: error)): \(error)")
        }
        return nil
    }

    /// Sends `endpoint` through `server` and returns the `NetworkError` it threw.
    func networkError(sending endpoint: ConformanceEndpoint, through server: Server) async -> NetworkError? {
        do {
            try await server.send(endpoint, accessToken: Self.token)
            Issue.record("expected a NetworkError, got a success")
        } catch {
            return error
        }
        return nil
    }
}
