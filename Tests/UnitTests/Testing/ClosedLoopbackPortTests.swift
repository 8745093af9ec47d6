@testable import AppSDKTesting
import Foundation
import Testing

@Suite("A loopback port nobody listens on")
struct ClosedLoopbackPortTests {
    @Test("no server can take the port while it is held, so a parallel test's server never answers there")
    func noServerCanTakeTheHeldPort() throws {
        let closed = try ClosedLoopbackPort()
        defer { closed.release() }
        // A test server binds with SO_REUSEADDR, which is what let one take a port just freed.
        #expect(throws: POSIXError(.EADDRINUSE)) { try LoopbackSocket.open(reuseAddress: true, port: closed.port) }
    }
}
