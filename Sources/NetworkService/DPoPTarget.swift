package import Foundation

/// The URL a DPoP proof names (its `htu`, RFC 9449 §4.2): the request's URL without query and
/// fragment, normalised as RFC 9449 §4.3 compares it (RFC 3986 §6.2.2 and §6.2.3).
///
/// The scheme and host are lower-cased, a default port (80 for http, 443 for https) is dropped,
/// the path is kept as sent, percent-encoding and trailing slash included (an empty path is
/// `/`), and user info, query and fragment are left out. An IPv6 host keeps its brackets.
///
/// ```swift
/// DPoPTarget(URL(string: "HTTPS://Server.Example.COM:443/token?x=1#f")!)?.htu   // https://server.example.com/token
/// ```
package struct DPoPTarget: Sendable, Hashable, CustomStringConvertible {
    /// The normalised URL, for example `https://server.example.com/token`.
    package let htu: String

    /// The target of a request to `url`; `nil` when `url` is not an http or https URL with a host.
    package init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = components.percentEncodedHost?.lowercased(), !host.isEmpty else { return nil }
        if host.contains(":") && !host.hasPrefix("[") { host = "[" + host + "]" }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        htu = scheme + "://" + host + port + path
    }

    /// The target whose `htu` is `htu`, already normalised as ``init(_:)`` writes it: for a
    /// ``Server``, whose normalised base and an endpoint's rendered path make it without parsing.
    init(normalizedHTU htu: String) {
        self.htu = htu
    }

    /// The `htu`.
    package var description: String { htu }
}
