public import Hummingbird

/// Test mode only: counts every answered request per route and every 401.
public struct TestCountersMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let state: TestModeState

    /// Creates the middleware.
    public init(state: TestModeState) {
        self.state = state
    }

    /// Runs the request and counts its status.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            state.record(route: Self.route(request, context), status: Int(response.status.code))
            return response
        } catch let error as ConnectionDropError {
            state.record(route: Self.route(request, context), status: 0)
            throw error
        } catch let error as ClientGoneError {
            state.record(route: Self.route(request, context), status: 0)
            throw error
        }
    }

    private static func route(_ request: Request, _ context: Context) -> String {
        // Hummingbird names unmatched requests "NotFound"; count those under their raw path.
        let path = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? request.uri.path
        return "\(request.method.rawValue) \(path)"
    }
}
