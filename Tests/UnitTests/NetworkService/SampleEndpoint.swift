import Foundation
import NetworkService

/// Endpoints for exercising NetworkService on its own, apart from the app's API.
enum SampleEndpoint: Endpoint {
    case list(threshold: Int?, pageSize: Int?)
    case search(filters: [QueryParameter])
    case item(name: String)
    case create(SampleBody)
    case remove(id: Int)
    case publicPing

    var method: HTTPMethod {
        switch self {
        case .list, .search, .item, .publicPing: .get
        case .create: .post
        case .remove: .delete
        }
    }

    var path: EndpointPath {
        switch self {
        case .list, .search: "/v1/samples"
        case let .item(name): "/v1/samples" / name
        case .create: "/v1/samples"
        case let .remove(id): "/v1/samples" / id
        case .publicPing: "/v1/ping"
        }
    }

    var query: [QueryParameter] {
        switch self {
        case let .list(threshold, pageSize): .page(threshold: threshold, pageSize: pageSize)
        case let .search(filters): filters
        default: []
        }
    }

    var body: RequestBody {
        switch self {
        case let .create(body): .json(body)
        default: .none
        }
    }

    var authentication: EndpointAuthentication {
        switch self {
        case .publicPing: .none
        default: .bearer
        }
    }
}

struct SampleBody: Codable, Sendable, Equatable {
    var content: String
    var isAnonymous: Bool
    var createdAt: Date
}

struct Sample: Codable, Sendable, Equatable {
    var id: Int
    var content: String
    var createdAt: Date
}
