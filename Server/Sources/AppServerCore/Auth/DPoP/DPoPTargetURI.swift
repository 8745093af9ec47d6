import Foundation

/// The form in which a proof's `htu` and the request's URI are compared (RFC 9449 §4.3 check
/// 10): scheme and host in lower case, a default port dropped, an empty path as `/`, and
/// neither query nor fragment (RFC 3986 §6.2.2–6.2.3 syntax- and scheme-based normalisation).
enum DPoPTargetURI {
    /// `uri` in comparable form; `nil` when it is not an absolute http or https URI with a host
    /// (user information is refused: a proof has no use for it).
    static func normalized(_ uri: String) -> String? {
        guard uri.utf8.count <= 2048, let components = URLComponents(string: uri),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = components.percentEncodedHost?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil else { return nil }
        var text = scheme + "://" + host
        if let port = components.port {
            guard (1...65_535).contains(port) else { return nil }
            let isDefault = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
            if !isDefault { text += ":\(port)" }
        }
        let path = components.percentEncodedPath
        return text + (path.isEmpty ? "/" : path)
    }
}
