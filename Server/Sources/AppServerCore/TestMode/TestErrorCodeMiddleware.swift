public import Hummingbird

/// Test mode only: counts the error codes the routes throw (`refresh_token_reused`, say), so
/// a test can check at the server that no client presented a used refresh token. It sits
/// inside ``ErrorMiddleware`` and passes every error on unchanged.
public struct TestErrorCodeMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let state: TestModeState

    /// Creates the middleware.
    public init(state: TestModeState) {
        self.state = state
    }

    /// Runs the request and counts the code of an ``APIError`` it throws.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            state.record(errorCode: error.code.rawValue)
            throw error
        }
    }
}
