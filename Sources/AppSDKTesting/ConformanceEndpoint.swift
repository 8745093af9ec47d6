import Foundation
import NetworkService

/// The few routes ``TransportConformance`` sends through a `Server`, apart from the app's API.
enum ConformanceEndpoint: Endpoint {
    case search([QueryParameter])
    case create(ConformanceItem)
    case remove(id: Int)

    var method: HTTPMethod {
        switch self {
        case .search: .get
        case .create: .post
        case .remove: .delete
        }
    }

    var path: EndpointPath {
        switch self {
        case .search, .create: "/v1/samples"
        case let .remove(id): "/v1/samples" / id
        }
    }

    var query: [QueryParameter] {
        if case let .search(filters) = self { return filters }
        return []
    }

    var body: RequestBody {
        if case let .create(item) = self { return .json(item) }
        return .none
    }
}

/// The JSON the conformance routes send and answer.
struct ConformanceItem: Codable, Sendable, Equatable {
    var id: Int
    var content: String
}
