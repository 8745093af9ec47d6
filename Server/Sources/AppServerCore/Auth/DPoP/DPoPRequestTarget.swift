import Hummingbird

/// The absolute URI a request was sent to, which its DPoP proof's `htu` must name (RFC 9449
/// §4.3 check 10): the scheme the server serves, the `Host` header and the request target's
/// path as it arrived.
///
/// The server speaks plain HTTP (it has no TLS; it listens on loopback or behind a proxy), so
/// the scheme is `http`. A proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` are not read:
/// a client behind a TLS-terminating proxy would sign `https://…` and be refused. Trusting
/// those headers needs a list of trusted proxies, which the server does not have.
enum DPoPRequestTarget {
    /// The scheme the server serves.
    static let scheme = "http"

    /// `http://<Host><path>` (the query is left in and ignored by the comparison); `nil` when
    /// the request has no `Host` or its target is not in origin form (`/path`).
    static func uri(of request: Request) -> String? {
        guard let host = request.head.authority, !host.isEmpty, let path = request.head.path, path.hasPrefix("/") else { return nil }
        return scheme + "://" + host + path
    }
}
