public import Hummingbird
import Logging

/// Logs one line per request: method, path, status and duration.
///
/// It never logs a header, a query string or a body, so tokens and passwords cannot end up in logs.
public struct RequestLogMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    /// Creates the middleware.
    public init() {}

    /// Runs the request and logs its outcome.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        func log(_ status: String) {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            context.logger.info(
                "request",
                metadata: [
                    "method": "\(request.method.rawValue)",
                    "path": "\(request.uri.path)",
                    "status": "\(status)",
                    "duration_ms": "\((milliseconds * 100).rounded() / 100)",
                ]
            )
        }
        do {
            let response = try await next(request, context)
            log(String(response.status.code))
            return response
        } catch is ConnectionDropError {
            log("dropped")
            throw ConnectionDropError()
        } catch is ClientGoneError {
            log("client gone")
            throw ClientGoneError()
        } catch {
            log("error")
            throw error
        }
    }
}
