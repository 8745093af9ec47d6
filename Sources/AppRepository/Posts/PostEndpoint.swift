import NetworkService

/// The routes under `/v1/posts` (comments have their own enum).
enum PostEndpoint: Endpoint {
    case fetchList(threshold: Int?, pageSize: Int?)
    case create(content: String, isAnonymous: Bool)
    case fetch(id: Int)
    case delete(id: Int)
    case toggleLike(id: Int)

    var method: HTTPMethod {
        switch self {
        case .fetchList, .fetch: .get
        case .create, .toggleLike: .post
        case .delete: .delete
        }
    }

    var path: EndpointPath {
        switch self {
        case .fetchList, .create: "/v1/posts"
        case let .fetch(id), let .delete(id): "/v1/posts" / id
        case let .toggleLike(id): "/v1/posts" / id / "like"
        }
    }

    var query: [QueryParameter] {
        switch self {
        case let .fetchList(threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
        default: []
        }
    }

    var body: RequestBody {
        switch self {
        case let .create(content, isAnonymous): .json(NewPostBody(content: content, isAnonymous: isAnonymous))
        default: .none
        }
    }

    struct NewPostBody: Encodable, Sendable {
        let content: String
        let isAnonymous: Bool
    }
}
