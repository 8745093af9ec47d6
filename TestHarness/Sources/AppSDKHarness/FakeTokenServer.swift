public import Foundation
public import NetworkService
public import TokenStore

/// One scriptable fake server for the tests that need a token server without a real one:
/// each test gives it an answer per endpoint (a route), may queue the next answers of an
/// endpoint ahead of its route (a script), and reads back every request it received.
///
/// It knows no protocol of its own: what a fake OAuth 2.0, JSON or OpenID Connect server
/// answers is the routes a test (or a helper of its suite) installs. A route may be bound to
/// one origin (a provider and its API on two hosts, say). It answers through any transport:
/// ``answer(_:)`` for a test transport in process, or ``serveOnLoopback()`` for a program in
/// another process.
///
/// ```swift
/// let fake = FakeTokenServer()
/// fake.route(.post, "/token/refresh") { request in .json(200, #"{"access":"a2","refresh":"r2"}"#) }
/// fake.script(.post, "/token/refresh", .reply(.json(503, "{}")), .reply(.fail(.connectionLost)))
/// // … the third refresh reaches the route; fake.requests(.post, "/token/refresh") has all three
/// ```
public final class FakeTokenServer: Sendable {
    /// A request as the fake received it.
    public struct Request: Sendable {
        /// The method, for example `POST`.
        public let method: String
        /// The path and query as sent, for example `/o/token/?x=1`.
        public let target: String
        /// The header fields, by name as sent.
        public let headers: [String: String]
        /// The body (empty when there is none).
        public let body: Data
        /// The scheme, host and port it was sent to, for example `https://api.example.test`, when
        /// the transport knows them (`nil` on loopback: there is only one origin).
        public let origin: String?

        /// A request of these parts.
        public init(method: String, target: String, headers: [String: String] = [:], body: Data = Data(),
                    origin: String? = nil) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
            self.origin = origin
        }

        /// The target without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The value of a header field, whatever the case of its name.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The `application/x-www-form-urlencoded` body's fields (the last of a repeated name; a
        /// name without a value has the empty value).
        public var form: [String: String] {
            guard let text = String(data: body, encoding: .utf8) else { return [:] }
            var fields: [String: String] = [:]
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                fields[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return fields
        }

        /// The JSON object body, or `nil` when the body is not one.
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }

        /// The token of an `Authorization: Bearer …` header, if any.
        public var bearerToken: String? {
            guard let value = header("Authorization"), value.hasPrefix("Bearer ") else { return nil }
            return String(value.dropFirst("Bearer ".count))
        }
    }

    /// An answer.
    public enum Reply: Sendable {
        /// An HTTP answer.
        case respond(status: Int, headers: [String: String], body: Data)
        /// No answer: the transport fails with this kind (on loopback, the connection is dropped).
        case fail(TransportError.Kind)
        /// This answer, after this many seconds of the real clock (a slow endpoint).
        indirect case delayed(TimeInterval, Reply)

        /// A JSON answer (`Content-Type: application/json`).
        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            headers["Content-Type"] = "application/json"
            return .respond(status: status, headers: headers, body: Data(text.utf8))
        }

        /// An answer with a status and nothing else.
        public static func status(_ status: Int) -> Reply { .respond(status: status, headers: [:], body: Data()) }
    }

    /// One queued answer of an endpoint (``script(_:_:_:)``).
    public enum Scripted: Sendable {
        /// Answer this, without running the route.
        case reply(Reply)
        /// Run the route and answer what it answers.
        case route
        /// Run the route (its effects happen), then answer this instead: a rotation whose answer
        /// is lost, say.
        case routeThen(Reply)
    }

    /// How an endpoint answers a request.
    public typealias Route = @Sendable (Request) -> Reply

    private struct Key: Hashable {
        var method: String
        var path: String
        /// `nil`: any origin.
        var origin: String?
    }

    private struct State {
        var notFound: Reply
        var routes: [Key: Route] = [:]
        var scripts: [Key: [Scripted]] = [:]
        var requests: [Request] = []
        var beforeAnswer: (@Sendable (Request) async -> Void)?
    }

    private let state: LockedValue<State>

    /// A fake with no route: every request is answered `notFound` (a 404) until a test installs
    /// routes.
    public init(notFound: Reply = .json(404, #"{"detail":"Not found."}"#)) {
        state = LockedValue(State(notFound: notFound))
    }

    /// Answers `method` `path` (the target without its query) with `route` from now on: sent to
    /// `origin` only (`https://api.example.test`, say), or to any origin when it is `nil`. A
    /// route of the request's origin comes before one of any origin.
    public func route(_ method: HTTPMethod, _ path: String, origin: String? = nil, _ route: @escaping Route) {
        state.withLock { $0.routes[Key(method: method.rawValue, path: path, origin: origin)] = route }
    }

    /// The next answers of `method` `path`, ahead of its route (once spent, the route answers).
    public func script(_ method: HTTPMethod, _ path: String, _ answers: Scripted...) {
        script(method, path, answers)
    }

    /// The next answers of `method` `path`, ahead of its route (once spent, the route answers).
    public func script(_ method: HTTPMethod, _ path: String, _ answers: [Scripted]) {
        state.withLock { $0.scripts[Key(method: method.rawValue, path: path)] = answers }
    }

    /// Awaited before each answer given through ``answer(_:)`` (a gate that holds a request, say).
    public func beforeAnswer(_ hook: (@Sendable (Request) async -> Void)?) {
        state.withLock { $0.beforeAnswer = hook }
    }

    /// Every request received, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The requests received for `method` `path`, in order.
    public func requests(_ method: HTTPMethod, _ path: String) -> [Request] {
        requests.filter { $0.method == method.rawValue && $0.path == path }
    }

    /// Records `request`, waits for the ``beforeAnswer(_:)`` hook, then answers it.
    public func answer(_ request: Request) async -> Reply {
        await state.withLock { $0.beforeAnswer }?(request)
        return answerNow(request)
    }

    /// Records `request` and answers it at once (no hook): from its script, else its route (of
    /// its origin, else of any origin), else the not-found answer.
    public func answerNow(_ request: Request) -> Reply {
        let key = Key(method: request.method, path: request.path)
        let (scripted, route, notFound): (Scripted?, Route?, Reply) = state.withLock { state in
            state.requests.append(request)
            let next = state.scripts[key]?.isEmpty == false ? state.scripts[key]?.removeFirst() : nil
            var onOrigin = key
            onOrigin.origin = request.origin
            return (next, state.routes[onOrigin] ?? state.routes[key], state.notFound)
        }
        let routed: () -> Reply = { route?(request) ?? notFound }
        switch scripted {
        case .reply(let reply)?: return reply
        case .route?, nil: return routed()
        case .routeThen(let reply)?:
            _ = routed()
            return reply
        }
    }
}
