import NetworkService

/// `POST /v1/reports`.
enum ReportEndpoint: Endpoint {
    case create(targetType: ReportTargetType, targetID: Int, reason: String)

    var method: HTTPMethod { .post }
    var path: EndpointPath { "/v1/reports" }

    var body: RequestBody {
        switch self {
        case let .create(targetType, targetID, reason):
            .json(NewReportBody(targetType: targetType, targetId: targetID, reason: reason))
        }
    }

    struct NewReportBody: Encodable, Sendable {
        let targetType: ReportTargetType
        let targetId: Int
        let reason: String
    }
}
