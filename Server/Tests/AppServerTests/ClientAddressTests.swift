import NIOCore
import Testing
@testable import AppServerCore

@Suite("The key a client is limited under")
struct ClientAddressTests {
    @Test("an IPv4 address is its own key")
    func ipv4() throws {
        #expect(ClientAddress.key(try SocketAddress(ipAddress: "203.0.113.7", port: 443)) == "203.0.113.7")
    }

    @Test("every IPv6 address of one /64 counts as one client, another /64 as another")
    func ipv6Prefix() throws {
        let a = ClientAddress.key(try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 443))
        let b = ClientAddress.key(try SocketAddress(ipAddress: "2001:db8:1:2:ffff:ffff:ffff:fffe", port: 443))
        let other = ClientAddress.key(try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 443))
        #expect(a == "2001:db8:1:2::/64")
        #expect(a == b)
        #expect(a != other)
    }

    @Test("an IPv4-mapped IPv6 address counts as its IPv4 address")
    func mapped() throws {
        #expect(ClientAddress.key(try SocketAddress(ipAddress: "::ffff:198.51.100.9", port: 443)) == "198.51.100.9")
    }

    @Test("a peer without an IP address is unknown")
    func unknown() throws {
        #expect(ClientAddress.key(nil) == "unknown")
    }
}
