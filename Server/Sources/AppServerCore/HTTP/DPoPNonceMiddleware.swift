public import Hummingbird

/// With DPoP nonces on: every response to a request that carried a `DPoP` proof, errors
/// included, gets the current `DPoP-Nonce` (RFC 9449 §8.2, §9), so a client always has a fresh
/// one. Sits outside ``ErrorMiddleware`` so error bodies are already responses here.
public struct DPoPNonceMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let gate: DPoPGate

    /// Creates the middleware.
    init(gate: DPoPGate) {
        self.gate = gate
    }

    /// Runs the request and adds the nonce to its response.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if request.headers[.dpop] != nil, let nonce = gate.currentNonce {
            response.headers[.dpopNonce] = nonce
        }
        return response
    }
}
