import NetworkService

/// The answer routes: under a question, the member's own, and by id.
enum AnswerEndpoint: Endpoint {
    case create(questionID: Int, content: String)
    case fetchList(questionID: Int, threshold: Int?, pageSize: Int?)
    case fetchListOfMine(threshold: Int?, pageSize: Int?)
    case delete(id: Int)

    var method: HTTPMethod {
        switch self {
        case .create: .post
        case .fetchList, .fetchListOfMine: .get
        case .delete: .delete
        }
    }

    var path: EndpointPath {
        switch self {
        case let .create(questionID, _), let .fetchList(questionID, _, _): "/v1/questions" / questionID / "answers"
        case .fetchListOfMine: "/v1/answers/mine"
        case let .delete(id): "/v1/answers" / id
        }
    }

    var query: [QueryParameter] {
        switch self {
        case let .fetchList(_, threshold, pageSize), let .fetchListOfMine(threshold, pageSize):
            .page(threshold: threshold, pageSize: pageSize)
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
