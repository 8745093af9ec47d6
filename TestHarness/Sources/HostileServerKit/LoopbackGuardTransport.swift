public import Foundation
public import NetworkService
import TokenStore

/// The transport the hostile-server kit hands the SDK: it wraps the transport under test and
/// keeps every request on loopback. A request for any other host, for a port that does not
/// fit in 16 bits, or for a scheme other than http(s) is never sent: it is recorded as a violation and
/// fails as `cannotConnect`, so no hostile document can make a test reach the network (or
/// crash a transport on a port above 65535). Requests for `https://127.0.0.1:PORT` of a
/// provider that ``HostileProvider/pretendsTLS`` go to its plain-HTTP port.
public final class LoopbackGuardTransport: HTTPTransport {
    /// Why a request was not sent.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// The request's method and URL.
        public let request: String
        /// Why it was refused.
        public let reason: String
        /// `the hostile-server kit did not send GET http://192.0.2.1/token: not a loopback host`.
        public var description: String { "the hostile-server kit did not send \(request): \(reason)" }
    }

    private let wrapped: any HTTPTransport
    private let tlsPorts: Set<Int>
    private let sent = LockedValue<[URL]>([])
    private let refused = LockedValue<[Refusal]>([])

    /// A guard around `wrapped`; `pretendedTLSPorts` are the loopback ports whose `https`
    /// URLs go to plain HTTP.
    public init(wrapping wrapped: any HTTPTransport, pretendedTLSPorts: Set<Int> = []) {
        self.wrapped = wrapped
        self.tlsPorts = pretendedTLSPorts
    }

    /// The URLs the SDK asked for and this transport passed on, in order (as the SDK wrote them).
    public var sentURLs: [URL] { sent.withLock { $0 } }
    /// The requests it refused.
    public var refusals: [Refusal] { refused.withLock { $0 } }

    /// Sends `request` through the wrapped transport if it stays on loopback.
    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        var forwarded = request
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let scheme = components?.scheme?.lowercased() ?? ""
        let host = components?.host?.lowercased() ?? ""
        let port = components?.port ?? (scheme == "https" ? 443 : 80)
        let label = "\(request.method.rawValue) \(request.url.absoluteString)"
        func refuse(_ reason: String) -> TransportError {
            let refusal = Refusal(request: label, reason: reason)
            refused.withLock { $0.append(refusal) }
            return TransportError(.cannotConnect, underlying: refusal)
        }
        guard scheme == "http" || scheme == "https" else { throw refuse("not an http(s) URL") }
        guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else { throw refuse("not a loopback host") }
        // Port 0 fails to connect; a port above 65535 crashes a transport that takes it as 16 bits.
        guard (0...65_535).contains(port) else { throw refuse("port \(port) is outside 0…65535") }
        if scheme == "https" {
            guard tlsPorts.contains(port), var plain = components else { throw refuse("no TLS on this loopback port") }
            plain.scheme = "http"
            guard let url = plain.url else { throw refuse("the URL cannot be written over http") }
            forwarded.url = url
        }
        sent.withLock { $0.append(request.url) }
        return try await wrapped.send(forwarded)
    }
}
