public import Hummingbird
public import NIOCore

/// The request context of every route: Hummingbird's core storage, the connection's channel
/// (so that a test-mode fault can drop it) and, on bearer routes, the authenticated caller.
public struct AppRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel
    /// The caller, set by ``AuthMiddleware`` on bearer routes.
    public var identity: Identity?

    /// Creates the context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.identity = nil
    }

    /// Request bodies are small JSON documents.
    public var maxUploadSize: Int { JSONBody.maximumBodySize }

    /// The authenticated caller.
    /// - Throws: ``APIError/missingToken`` when the route was not behind ``AuthMiddleware`` (a wiring bug).
    public func requireIdentity() throws(APIError) -> Identity {
        guard let identity else { throw APIError.missingToken }
        return identity
    }
}
