import AppSDKTesting
import ArgumentParser
import Foundation
import NetworkService

/// `--server`: the reference server in test mode.
struct ServerOption: ParsableArguments {
    @Option(name: .long, help: "Base URL of the reference server, started with --test-mode.")
    var server: String

    func makeServer(transport: any HTTPTransport = URLSessionTransport(timeout: 60)) throws -> Server {
        try Server(baseURL: server, transport: transport)
    }

    func testMode() throws -> TestModeClient {
        TestModeClient(server: try makeServer())
    }
}
