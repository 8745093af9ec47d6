public import Hummingbird
import NIOConcurrencyHelpers

/// The routes the server serves, as `(method, path template)`, so that a request for a known path
/// with an unsupported method can be answered `405 Method Not Allowed` with an `Allow` header
/// instead of `404`.
public final class RouteTable: Sendable {
    private struct Route {
        let method: HTTPRequest.Method
        let segments: [Substring]
    }

    private let routes = NIOLockedValueBox<[Route]>([])

    /// Creates an empty table.
    public init() {}

    /// Records a route; `{name}` segments match any single path segment.
    func add(_ method: HTTPRequest.Method, _ template: String) {
        let segments = template.split(separator: "/")
        routes.withLockedValue { $0.append(Route(method: method, segments: segments)) }
    }

    /// The methods served for this path, in registration order; empty when the path is unknown.
    ///
    /// Like Hummingbird's router, a literal segment wins over a `{capture}` at the same position:
    /// `/v1/answers/mine` is served by `GET /v1/answers/mine` only, not by `DELETE /v1/answers/{id}`.
    public func methods(forPath path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return routes.withLockedValue { routes in
            var best: [Bool] = []
            var methods: [HTTPRequest.Method] = []
            for route in routes where route.segments.count == segments.count {
                var literals: [Bool] = []
                var matches = true
                for (template, actual) in zip(route.segments, segments) {
                    if template.hasPrefix("{") && template.hasSuffix("}") {
                        literals.append(false)
                    } else if template == actual {
                        literals.append(true)
                    } else {
                        matches = false
                        break
                    }
                }
                guard matches else { continue }
                if methods.isEmpty || Self.isMoreSpecific(literals, than: best) {
                    best = literals
                    methods = [route.method]
                } else if literals == best, !methods.contains(route.method) {
                    methods.append(route.method)
                }
            }
            return methods
        }
    }

    /// Whether the first differing segment is a literal in `a` and a capture in `b`.
    private static func isMoreSpecific(_ a: [Bool], than b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x }
        return false
    }
}

/// The router as the route collections are added to it: forwards every route to the router and
/// records it in a ``RouteTable``.
struct RecordingRouter: RouterMethods {
    let router: Router<AppRequestContext>
    let table: RouteTable

    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == AppRequestContext {
        router.on(path, method: method, responder: responder)
        table.add(method, path.description)
        return self
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, AppRequestContext>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}
