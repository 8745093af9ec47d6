import NetworkService

/// The routes under `/v1/members`.
enum MemberEndpoint: Endpoint {
    case fetchMe
    case updateMe(nickname: String)
    case deleteMe

    var method: HTTPMethod {
        switch self {
        case .fetchMe: .get
        case .updateMe: .patch
        case .deleteMe: .delete
        }
    }

    var path: EndpointPath { "/v1/members/me" }

    var body: RequestBody {
        switch self {
        case let .updateMe(nickname): .json(NicknameBody(nickname: nickname))
        default: .none
        }
    }

    struct NicknameBody: Encodable, Sendable {
        let nickname: String
    }
}
