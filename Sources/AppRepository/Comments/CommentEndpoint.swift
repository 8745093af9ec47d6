import NetworkService

/// The comment routes: under a post, and by id.
enum CommentEndpoint: Endpoint {
    case fetchList(postID: Int, threshold: Int?, pageSize: Int?)
    case create(postID: Int, content: String)
    case delete(id: Int)

    var method: HTTPMethod {
        switch self {
        case .fetchList: .get
        case .create: .post
        case .delete: .delete
        }
    }

    var path: EndpointPath {
        switch self {
        case let .fetchList(postID, _, _), let .create(postID, _): "/v1/posts" / postID / "comments"
        case let .delete(id): "/v1/comments" / id
        }
    }

    var query: [QueryParameter] {
        switch self {
        case let .fetchList(_, threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
        default: []
        }
    }

    var body: RequestBody {
        switch self {
        case let .create(_, content): .json(ContentBody(content: content))
        default: .none
        }
    }
}
