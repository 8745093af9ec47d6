import AppSDKHarness
import ArgumentParser
import Foundation
import NetworkService

/// `--server`: the reference server in test mode.
struct ServerOption: ParsableArguments {
    @Option(name: .long, help: "Base URL of the reference server, started with --test-mode.")
    var server: String

    /// The server. Plain http is allowed on any host: the server is the reference server in
    /// test mode, which the fleet test runs on its simulated hosts' own network (10.77.k.1),
    /// never a server with real secrets.
    func makeServer(transport: any HTTPTransport = URLSessionTransport(timeout: 60)) throws -> Server {
        try Self.makeServer(server, transport: transport)
    }

    /// The reference server in test mode at `url` (as ``makeServer(transport:)``).
    static func makeServer(_ url: String, transport: any HTTPTransport = URLSessionTransport(timeout: 60)) throws -> Server {
        try Server(baseURL: url, transport: transport, allowsPlainHTTP: true)
    }

    func testMode() throws -> TestModeClient {
        TestModeClient(server: try makeServer())
    }
}
