@testable import AppSDKTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("A loopback port nobody listens on")
struct ClosedLoopbackPortTests {
    @Test("no server can take the port while it is held, so a parallel test's server never answers there")
    func noServerCanTakeTheHeldPort() throws {
        let closed = try ClosedLoopbackPort()
        // A test server binds with SO_REUSEADDR, which is what let one take a port just freed.
        #expect(throws: POSIXError.self) { try LoopbackSocket.open(reuseAddress: true, port: closed.port) }
        closed.release()
        let (descriptor, port) = try LoopbackSocket.open(reuseAddress: true, port: closed.port)
        close(descriptor)
        #expect(port == closed.port)
    }

}
