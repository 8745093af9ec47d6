import AppSDKTesting
import AsyncHTTPClient
import AsyncHTTPClientTransport
import Foundation
import NetworkService
import Testing

@Suite("The AsyncHTTPClient transport's client")
struct ClientLifecycleTests {
    @Test("every transport made without a client shares one client, the shared transport's")
    func sharedClientIsReused() async throws {
        let first = AsyncHTTPClientTransport(timeout: 5)
        let second = AsyncHTTPClientTransport(timeout: 12)
        #expect(first.client === AsyncHTTPClientTransport.shared.client)
        #expect(second.client === first.client)
        #expect(!first.ownsClient && !AsyncHTTPClientTransport.shared.ownsClient)
        #expect(first.client !== HTTPClient.shared, "the shared client is configured for the SDK, not HTTPClient.shared")
    }

    @Test("shutting down a transport over the shared client leaves the client working")
    func sharedClientSurvivesShutdown() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let transport = AsyncHTTPClientTransport(timeout: 5)
        try await transport.shutdown()
        let (_, response) = try await AsyncHTTPClientTransport.shared.send(Self.get(http.baseURL))
        #expect(response.statusCode == 204)
    }

    @Test("an owned client works until shutdown, then fails with a clear, non-transient error; a second shutdown does nothing")
    func ownedClientShutsDown() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let transport = AsyncHTTPClientTransport.owningClient(timeout: 5)
        #expect(transport.ownsClient)
        #expect(transport.client !== AsyncHTTPClientTransport.shared.client)
        let (_, response) = try await transport.send(Self.get(http.baseURL))
        #expect(response.statusCode == 204)

        try await transport.shutdown()
        let error = await #expect(throws: TransportError.self) { try await transport.send(Self.get(http.baseURL)) }
        #expect(error?.kind == .other)
        #expect(error?.isTransient == false)
        #expect(error?.cause?.contains("shut down") == true, "\(String(describing: error))")
        try await transport.shutdown()
    }

    @Test("withOwnedClient shuts its client down after the body, even when the body throws")
    func scopedClientShutsDown() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let status = try await AsyncHTTPClientTransport.withOwnedClient(timeout: 5) { transport in
            try await transport.send(Self.get(http.baseURL)).1.statusCode
        }
        #expect(status == 204)

        struct Stop: Error {}
        let escaped = LockedBox<AsyncHTTPClientTransport?>(nil)
        await #expect(throws: Stop.self) {
            try await AsyncHTTPClientTransport.withOwnedClient(timeout: 5) { transport -> Int in
                escaped.value = transport
                throw Stop()
            }
        }
        let transport = try #require(escaped.value)
        let error = await #expect(throws: TransportError.self) { try await transport.send(Self.get(http.baseURL)) }
        #expect(error?.cause?.contains("shut down") == true, "\(String(describing: error))")
    }

    @Test("a transport over a client of yours leaves it running at shutdown")
    func borrowedClientStaysRunning() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: AsyncHTTPClientTransport.sdkConfiguration)
        let transport = AsyncHTTPClientTransport(client: client, timeout: 5)
        #expect(!transport.ownsClient)
        try await transport.shutdown()
        let (_, response) = try await transport.send(Self.get(http.baseURL))
        #expect(response.statusCode == 204)
        try await client.shutdown()
    }

    static func get(_ baseURL: String) -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: baseURL + "/v1/ping")!)
    }
}

/// A value a test's closure sets and the test reads afterwards.
///
/// `@unchecked Sendable` is safe here: `value` is only read or written under `lock`.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
