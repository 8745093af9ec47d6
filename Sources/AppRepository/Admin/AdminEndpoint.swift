import NetworkService

/// The routes under `/v1/admin`.
enum AdminEndpoint: Endpoint {
    case fetchReports(threshold: Int?, pageSize: Int?)

    var method: HTTPMethod { .get }
    var path: EndpointPath { "/v1/admin/reports" }

    var query: [QueryParameter] {
        switch self {
        case let .fetchReports(threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
        }
    }
}
