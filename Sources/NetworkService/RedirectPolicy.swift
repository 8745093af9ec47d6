public import Foundation

/// Which redirects a transport may follow: the one rule every transport of the SDK applies.
///
/// A request that carries a credential, a header whose value is secret (`Authorization`,
/// `Cookie`, any `…Token…` or `…Api-Key…` header) or a body (a sign-in's password, say),
/// follows a redirect only within its own origin (scheme, host and port); a redirect
/// elsewhere is refused with a ``TransportError`` of kind `.redirectRefused`, so the credential never reaches
/// another server. A request without one follows any redirect.
///
/// Any request, with or without a credential, is refused a redirect from `https` to plain
/// `http` (the answer would come from a server nobody authenticated: a discovery document
/// naming where secrets go, say) and a redirect to a port outside 1–65535.
///
/// A request carrying a `DPoP` header (RFC 9449) follows no redirect at all, not even within
/// its origin: its proof names one method and URL (`htm`, `htu`), so the server redirected to
/// would refuse it, and a new proof cannot be made inside a transport.
///
/// Why refuse rather than follow without the credential: the other server would answer 401
/// (or take a sign-in without its body for a new request), which the SDK would read as its
/// token being rejected; a refusal says what happened. The query of the first request never
/// travels: the new URL is the one the server named.
///
/// ```swift
/// let request = HTTPRequest(method: .get, url: URL(string: "https://api.example.com/v1/posts")!,
///                           headerFields: ["Authorization": "Bearer …"])
/// RedirectPolicy.refusal(of: request, redirectedTo: URL(string: "https://api.example.com/v1/posts/")!)   // nil: same origin
/// RedirectPolicy.refusal(of: request, redirectedTo: URL(string: "https://cdn.example.net/x")!)           // TransportError(.redirectRefused)
/// ```
public enum RedirectPolicy {
    /// The error that refuses `request` a redirect to `target` (kind `.redirectRefused`, naming
    /// both origins and why), or `nil` when it may follow.
    public static func refusal(of request: HTTPRequest, redirectedTo target: URL) -> TransportError? {
        let from = origin(of: request.url)
        let to = origin(of: target)
        let downgrade = from.hasPrefix("https://") && to.hasPrefix("http://")
        let badPort = URLComponents(url: target, resolvingAgainstBaseURL: true)?.port.map { !(1...65_535).contains($0) } ?? false
        let carriesProof = request.value(forHeaderField: "DPoP") != nil
        guard downgrade || badPort || carriesProof || (from != to && carriesCredential(request)) else { return nil }
        return TransportError(.redirectRefused, underlying: CrossOriginRedirect(from: from, to: to, carriesProof: carriesProof))
    }

    /// Whether `request` carries something only its own server may see: a header whose value
    /// the SDK never prints (see ``HTTPRequest``'s description) or a body.
    package static func carriesCredential(_ request: HTTPRequest) -> Bool {
        if let body = request.body, !body.isEmpty { return true }
        return request.headerFields.keys.contains { Redaction.isSensitiveHeader($0) }
    }

    /// The origin of `url` as `scheme://host:port`, lowercased, with the scheme's default
    /// port filled in, for example `https://api.example.com:443`; no user info, path or query.
    public static func origin(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let scheme = (components?.scheme ?? "").lowercased()
        let host = (components?.host ?? "").lowercased()
        let port = components?.port ?? defaultPort(of: scheme)
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    private static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
