import NIOCore

/// The key a client is counted under by the per-address connection cap and the rate limits.
///
/// An IPv4 address is its own key. An IPv6 client usually holds a whole /64 (a home or a cloud
/// host gets one), so keying by the full address would give it 2^64 tries: an IPv6 address
/// counts under its /64 prefix (`2001:db8:1:2::/64`), and an IPv4-mapped one (`::ffff:a.b.c.d`)
/// as its IPv4 address.
enum ClientAddress {
    /// The key for `address`; `"unknown"` when the peer is not an IP address.
    static func key(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        switch address {
        case .v6:
            // sockaddr_in6: family (2 bytes), port (2), flow info (4), then the 16-byte address.
            let raw = address.withSockAddr { pointer, size in Array(UnsafeRawBufferPointer(start: pointer, count: size)) }
            guard raw.count >= 24 else { return address.ipAddress ?? "unknown" }
            let bytes = Array(raw[8..<24])
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                return bytes[12..<16].map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        default:
            return address.ipAddress ?? "unknown"
        }
    }
}
