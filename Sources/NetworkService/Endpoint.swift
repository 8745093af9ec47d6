/// Whether an endpoint needs a bearer access token.
public enum EndpointAuthentication: Sendable, Hashable {
    /// Public: no `Authorization` header is sent.
    case none
    /// `Authorization: Bearer <access token>` is required; sending without a token fails
    /// before anything goes on the wire.
    case bearer
}

/// A complete description of one API request: method, path, query, headers, body and
/// whether it needs an access token.
///
/// Endpoints are enums, one per domain, with a case per route whose associated values are
/// everything the route needs. A case cannot be made without them, so an incomplete request
/// cannot be sent:
///
/// ```swift
/// enum PostEndpoint: Endpoint {
///     case list(threshold: Int?, pageSize: Int?)
///     case delete(id: Int)
///
///     var method: HTTPMethod {
///         switch self { case .list: .get; case .delete: .delete }
///     }
///     var path: EndpointPath {
///         switch self { case .list: "/v1/posts"; case let .delete(id): "/v1/posts" / id }
///     }
///     var query: [QueryParameter] {
///         switch self {
///         case let .list(threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
///         case .delete: []
///         }
///     }
/// }
///
/// let page: Page<Post> = try await server.send(PostEndpoint.list(threshold: nil, pageSize: 20),
///                                              accessToken: token)
/// ```
public protocol Endpoint: Sendable {
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// The path, starting with `/`: appended to the path of ``Server/baseURL`` (`/v1/posts` for
    /// the app's API, `/o/token/` for an OAuth 2.0 server).
    var path: EndpointPath { get }
    /// Typed query parameters; empty by default.
    var query: [QueryParameter] { get }
    /// Extra header fields; none by default. `Authorization`, `Accept` and `Content-Type`
    /// are set by the SDK.
    var headers: [String: String] { get }
    /// The body; none by default.
    var body: RequestBody { get }
    /// Whether the endpoint needs an access token; `.bearer` by default.
    var authentication: EndpointAuthentication { get }
    /// Secrets the request carries besides the access token (a password, a refresh
    /// token): redacted from every error if the server echoes them back. None by default.
    var secrets: [String] { get }
}

extension Endpoint {
    /// No query parameters.
    public var query: [QueryParameter] { [] }
    /// No extra headers.
    public var headers: [String: String] { [:] }
    /// No body.
    public var body: RequestBody { .none }
    /// Bearer authentication.
    public var authentication: EndpointAuthentication { .bearer }
    /// No secrets besides the access token.
    public var secrets: [String] { [] }

    /// `POST /v1/posts`, the method and rendered path (no query): what errors name.
    public var summary: String { "\(method.rawValue) \(path.rendered)" }
}
