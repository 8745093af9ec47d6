public import AsyncHTTPClient
public import Foundation
import NIOCore

extension AsyncHTTPClientTransport {
    /// The configuration of the shared client and the default of the owned ones: redirects
    /// followed up to 10 and never in a cycle (as `URLSession` follows them), gzip and
    /// deflate bodies decompressed, and a refused connection reported at once rather than
    /// retried until the request's deadline.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.sdkConfiguration
    /// configuration.proxy = .server(host: "proxy.internal", port: 3128)
    /// let transport = AsyncHTTPClientTransport.owningClient(configuration: configuration)
    /// ```
    public static var sdkConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 10, allowCycles: false),
            decompression: .enabled(limit: .ratio(25))
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        // The configuration holds the tracer bootstrapped when it was made; with none
        // bootstrapped that is swift-distributed-tracing's `NoOpTracer`, whose spans record
        // nothing yet cost every request a dynamic cast, a span and its attributes. Without
        // a tracer AsyncHTTPClient makes no span at all: the same outcome, for less.
        if let tracer = configuration.tracing.tracer, String(reflecting: type(of: tracer)) == "Tracing.NoOpTracer" {
            configuration.tracing.tracer = nil
        }
        return configuration
    }

    /// The process-wide client behind ``shared``: made on first use, on AsyncHTTPClient's
    /// default event loops, and never shut down (it lives as long as the process, so it
    /// is never released un-shut-down).
    static let sharedClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: sdkConfiguration)

    /// Makes a transport with a client of its own, which you must ``shutdown()`` once done
    /// (AsyncHTTPClient stops a debug build that releases a client still running). Prefer
    /// ``withOwnedClient(configuration:timeout:maximumResponseBytes:_:)``, which cannot forget.
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport.owningClient(timeout: 10)
    /// defer { Task { try? await transport.shutdown() } }   // or await it at exit
    /// ```
    public static func owningClient(configuration: HTTPClient.Configuration = sdkConfiguration,
                                    timeout: TimeInterval = defaultTimeout,
                                    maximumResponseBytes: Int = defaultMaximumResponseBytes) -> AsyncHTTPClientTransport {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        return AsyncHTTPClientTransport(client: client, ownsClient: true, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// Runs `body` with a transport that has a client of its own, and shuts the client
    /// down afterwards, whether `body` returned or threw.
    ///
    /// ```swift
    /// let member = try await AsyncHTTPClientTransport.withOwnedClient(timeout: 10) { transport in
    ///     let server = try Server(baseURL: "https://api.example.com", transport: transport)
    ///     return try await MemberAPI.fetchMe(server: server, accessToken: token)
    /// }
    /// ```
    public static func withOwnedClient<Result: Sendable>(
        configuration: HTTPClient.Configuration = sdkConfiguration,
        timeout: TimeInterval = defaultTimeout,
        maximumResponseBytes: Int = defaultMaximumResponseBytes,
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = owningClient(configuration: configuration, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    /// Shuts down the client if the transport owns it (``ownsClient``); otherwise does
    /// nothing, so it is safe to call on any transport. Calling it again does nothing.
    /// Requests sent afterwards fail with `.other` ("the HTTP client was shut down").
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport.owningClient()
    /// // ... requests ...
    /// try await transport.shutdown()
    /// ```
    public func shutdown() async throws {
        guard ownsClient else { return }
        do {
            try await client.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }
}
