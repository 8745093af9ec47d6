public import Foundation
public import AppSDKTesting
import TokenStore

/// A scriptable OAuth 2.0 / OpenID Connect provider on 127.0.0.1, for the hostile-server kit
/// (``HostileServerKit``) and the CLIs' tests: discovery, the token endpoint (client
/// credentials, refresh, device code), device authorization, userinfo, revocation and an API
/// route, each answering as its ``HostileScript`` says (by default, as a well-behaved provider
/// would). Every request is recorded with the route it reached, so a test can check what was
/// sent and to where.
///
/// Its issuer has a path of its own (`http://127.0.0.1:PORT/i-…`): the SDK keeps discovered
/// metadata for the life of the process, by issuer, so no two providers share one even when
/// the kernel gives a later one the same port.
///
/// ```swift
/// let provider = try HostileProvider(script: HostileScript { script in
///     script.token = { _ in .respond(status: 200, body: Data("access_token=AT&token_type=Bearer".utf8)) }
/// })
/// defer { provider.stop() }
/// let oauth = try await OAuthProvider.discover(issuer: provider.issuer, clientID: "kit-client", clientSecret: "…")
/// ```
public final class HostileProvider: Sendable {
    /// Which endpoint a request reached.
    public enum Route: String, Sendable {
        case discovery, token, deviceAuthorization, userinfo, revocation, api, other
    }

    /// A request as the provider read it, with the route it reached.
    public struct Exchange: Sendable {
        /// The endpoint.
        public let route: Route
        /// The request.
        public let request: LoopbackHTTPServer.Request
        /// What the provider answered.
        public let reply: LoopbackHTTPServer.Reply
    }

    /// The server underneath.
    let server: LoopbackHTTPServer
    /// Another origin (another port on 127.0.0.1) that must receive no secret: the target of
    /// the redirect modes. It answers like a token endpoint, to tempt a client into sending more.
    let trap: LoopbackHTTPServer
    /// The issuer's path, `/i-` and 12 random hexadecimal digits.
    public let issuerPath: String
    /// Whether the issuer and the endpoints are written `https://` (the kit's transport
    /// wrapper carries them to this plain-HTTP server): a provider the SDK believes it reaches over TLS.
    public let pretendsTLS: Bool
    private let exchangesStore: LockedValue<[Exchange]>

    /// Starts the provider (and its trap) on free ports.
    public init(script: HostileScript = HostileScript()) throws {
        let path = "/i-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        issuerPath = path
        pretendsTLS = script.pretendsTLS
        let trapAnswer = script.trap
        trap = try LoopbackHTTPServer { request in trapAnswer(request) }
        let recorded = LockedValue<[Exchange]>([])
        let trapBase = trap.baseURL
        let tls = script.pretendsTLS
        server = try LoopbackHTTPServer { request in
            let route = Self.route(of: request.target, issuerPath: path)
            let port = Int(request.header("Host")?.split(separator: ":").last ?? "") ?? 0
            let context = HostileContext(request: request, route: route,
                                         origin: (tls ? "https" : "http") + "://127.0.0.1:\(port)", issuerPath: path,
                                         trapBaseURL: trapBase, clientAuthentication: script.clientAuthentication,
                                         dpop: script.dpop)
            let reply = script.answer(for: route)(context)
            recorded.withLock { $0.append(Exchange(route: route, request: request, reply: reply)) }
            return reply
        }
        exchangesStore = recorded
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` (`https://` when it ``pretendsTLS``).
    public var origin: String { (pretendsTLS ? "https" : "http") + "://127.0.0.1:\(server.port)" }
    /// The issuer: ``origin`` and ``issuerPath``.
    public var issuer: URL { URL(string: origin + issuerPath)! }
    /// The port the provider listens on.
    public var port: Int { server.port }
    /// The other origin's port.
    public var trapPort: Int { trap.port }
    /// Every request the provider read, in order.
    public var requests: [Exchange] { exchangesStore.withLock { $0 } }
    /// Every request the other origin read (it should read none that carries a secret).
    public var trapRequests: [LoopbackHTTPServer.Request] { trap.requests }
    /// The bytes the provider wrote to every connection.
    public var bytesSent: Int { server.bytesSent }

    /// Waits until every request read so far has had its reply (written, or cut short by the
    /// client), for at most `timeout` seconds; whether they all did.
    public func waitForReplies(timeout: TimeInterval) async -> Bool {
        (try? await server.waitForReplies(requests.count, timeout: timeout)) ?? false
    }

    /// Stops both servers (calling it again does nothing).
    public func stop() {
        server.stop()
        trap.stop()
    }

    static func route(of target: String, issuerPath: String) -> Route {
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        guard path.hasPrefix(issuerPath) else {
            return path.hasPrefix("/.well-known/") ? .discovery : .other
        }
        switch path.dropFirst(issuerPath.count) {
        case "/.well-known/openid-configuration": return .discovery
        case "/token": return .token
        case "/device": return .deviceAuthorization
        case "/userinfo": return .userinfo
        case "/revoke": return .revocation
        case "/api/me": return .api
        default: return .other
        }
    }
}
