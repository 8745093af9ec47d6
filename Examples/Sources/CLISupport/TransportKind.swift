public import ArgumentParser
#if AsyncHTTPClient
import AsyncHTTPClientTransport
#endif
public import Foundation
public import NetworkService

/// How a program sends its requests (`--transport`).
public enum TransportKind: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Foundation's `URLSession` (the SDK's default).
    case urlsession
    /// AsyncHTTPClient (SwiftNIO), from the `Integrations/AsyncHTTPClientTransport` package.
    case asyncHTTPClient = "async-http-client"

    /// Whether this build has the transport: AsyncHTTPClient's only with the package trait of
    /// that name (on by default; scripts/demo's CLIs are built without it).
    public var isBuilt: Bool {
        switch self {
        case .urlsession: true
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            true
            #else
            false
            #endif
        }
    }
}

/// The transport a command's server uses, and what to do with it when the command ends.
public struct CommandTransport: Sendable {
    /// The transport to give the `Server`.
    public let transport: any HTTPTransport
    /// Releases what the transport holds: an AsyncHTTPClient client of its own is shut down
    /// (a URLSession needs nothing).
    public let close: @Sendable () async -> Void

    /// A transport of `kind` whose requests wait `timeout` seconds at most. The
    /// AsyncHTTPClient one owns its client, which ``close`` shuts down.
    public static func make(_ kind: TransportKind, timeout: TimeInterval) -> CommandTransport {
        switch kind {
        case .urlsession:
            return CommandTransport(transport: URLSessionTransport(timeout: timeout), close: {})
        case .asyncHTTPClient:
            #if AsyncHTTPClient
            let transport = AsyncHTTPClientTransport.owningClient(timeout: timeout)
            return CommandTransport(transport: transport, close: { try? await transport.shutdown() })
            #else
            preconditionFailure("StoreOptions.resolvedTransportKind() refuses async-http-client in a build without it")
            #endif
        }
    }
}
