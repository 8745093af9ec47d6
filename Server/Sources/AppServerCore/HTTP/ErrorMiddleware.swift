public import Hummingbird
import Logging

/// Turns every error a route throws into the contract's JSON error body.
///
/// ``APIError`` keeps its status and code; Hummingbird's own `HTTPError`s (no such route, body
/// too large, ...) get the matching contract code; anything else is logged and answered
/// `500 internal` without details. ``ConnectionDropError`` and ``ClientGoneError`` pass through: there is no response.
public struct ErrorMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let routes: RouteTable

    /// Creates the middleware; `routes` tells a wrong method (405) from an unknown path (404).
    public init(routes: RouteTable) {
        self.routes = routes
    }

    /// Runs the route and converts its errors.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as ConnectionDropError {
            throw error
        } catch let error as ClientGoneError {
            throw error
        } catch let error as HTTPError where error.status == .notFound {
            // Hummingbird answers "no route" for an unknown path and for a known path with another method.
            let allowed = routes.methods(forPath: request.uri.path)
            guard !allowed.isEmpty else {
                return try APIError.notFound("No route for \(request.method) \(request.uri.path).").response(from: request, context: context)
            }
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            var response = try APIError(
                status: .methodNotAllowed, code: .invalidRequest,
                message: "method: \(request.method) is not allowed on \(request.uri.path); allowed: \(names)"
            ).response(from: request, context: context)
            response.headers[.allow] = names
            return response
        } catch let error as HTTPError {
            return try Self.apiError(for: error, request: request).response(from: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return try APIError.internal().response(from: request, context: context)
        }
    }

    private static func apiError(for error: HTTPError, request: Request) -> APIError {
        switch error.status {
        case .notFound:
            return .notFound("No route for \(request.method) \(request.uri.path).")
        case .unauthorized:
            return .missingToken
        case .forbidden:
            return .forbidden("Forbidden.")
        case .contentTooLarge:
            return APIError(status: .contentTooLarge, code: .invalidRequest, message: "body: larger than \(JSONBody.maximumBodySize) bytes")
        case let status where (400..<500).contains(status.code):
            return APIError(status: status, code: .invalidRequest, message: error.body ?? status.reasonPhrase)
        default:
            return .internal()
        }
    }
}
