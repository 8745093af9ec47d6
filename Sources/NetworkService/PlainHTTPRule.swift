package import Foundation

/// The one rule for where a request may go, shared by every module of the SDK: plain `http:`
/// only to a loopback host (127.0.0.0/8, `::1`, `localhost`), and a port within 1–65535.
///
/// Every request the SDK sends carries something secret (an access or refresh token, a
/// password, a client secret, an authorization or device code), so a plain-http URL on another
/// host is refused before any connection is made, wherever a URL enters: ``Server``'s base URL,
/// an issuer, every endpoint a discovery document names, every request to an authorization
/// server. A port outside 1–65535 is refused there too: some transports trap on one.
package enum PlainHTTPRule {
    /// Why `url` may not carry a secret, in words, or `nil` when it may: `https:` on any host,
    /// `http:` on a loopback host, a port (when given) within 1–65535.
    package static func refusal(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "it is not a valid URL" }
        return refusal(scheme: components.scheme, host: components.host, port: components.port)
    }

    /// As ``refusal(of:)``, for the parts of a URL.
    package static func refusal(scheme: String?, host: String?, port: Int?) -> String? {
        if let port, !(1...65_535).contains(port) { return "its port \(port) is not within 1–65535" }
        switch scheme?.lowercased() {
        case "https"?:
            return nil
        case "http"?:
            guard let host, isLoopback(host: host) else {
                return "plain http is allowed only to a loopback host (127.0.0.0/8, ::1, localhost): use https"
            }
            return nil
        default:
            return "the scheme must be https (or http on a loopback host)"
        }
    }

    /// Whether `host` (as a URL names it: `[::1]` or `::1`, a dotted IPv4 address, a name) is
    /// this machine's loopback: `localhost`, an address in 127.0.0.0/8, `::1`, or an IPv4-mapped
    /// loopback address. A name other than `localhost` is not, whatever it resolves to.
    package static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "localhost." { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }   // ::1
        // ::ffff:127.x.y.z
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }
}
