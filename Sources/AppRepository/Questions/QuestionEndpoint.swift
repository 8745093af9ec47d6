import NetworkService

/// The routes under `/v1/questions`.
enum QuestionEndpoint: Endpoint {
    case fetchToday
    case fetchList(threshold: Int?, pageSize: Int?)

    var method: HTTPMethod { .get }

    var path: EndpointPath {
        switch self {
        case .fetchToday: "/v1/questions/today"
        case .fetchList: "/v1/questions"
        }
    }

    var query: [QueryParameter] {
        switch self {
        case .fetchToday: []
        case let .fetchList(threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
        }
    }
}
