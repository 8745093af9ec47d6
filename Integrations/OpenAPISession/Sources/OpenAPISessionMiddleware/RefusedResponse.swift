#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import NetworkService
import OpenAPIRuntime
import SessionEngine

/// A response that may say the access token was refused (a status the policy counts, or a
/// 403), kept for the caller while the engine decides, with the `ResponseStatusError` the
/// engine classifies.
struct RefusedResponse: Sendable {
    /// The response as received.
    let response: HTTPTypes.HTTPResponse
    /// Its body: as received, or buffered when it was read for its error code.
    let body: HTTPBody?
    /// What the engine classifies.
    let error: ResponseStatusError

    /// The longest refusal body read for its error code (a policy with `serverErrorCodes` needs it).
    static let maximumBodyBytes = 64 * 1024

    /// `nil` when `response` cannot be a refused token under `policy` (a success, a 404, …);
    /// its error code read by `errorFormat` (the session's server's).
    init?(_ response: HTTPTypes.HTTPResponse, body: HTTPBody?, request: HTTPTypes.HTTPRequest,
          policy: AuthenticationFailurePolicy, errorFormat: ServerErrorFormat) async throws {
        let status = response.status.code
        guard status == 403 || policy.statusCodes.contains(status) else { return nil }
        let challenge = response.headerFields[.wwwAuthenticate]
        // Its error code is in the body (or the challenge): a body of known, small length is
        // read for it and kept, buffered, for the caller; any other is passed on unread.
        var body = body
        var bytes = Data()
        if let received = body, case let .known(length) = received.length, length <= Self.maximumBodyBytes {
            bytes = try await Data(collecting: received, upTo: Self.maximumBodyBytes)
            body = HTTPBody(bytes)
        }
        let code = errorFormat.decode(Self.sdkResponse(response), bytes)?.code
        self.response = response
        self.body = body
        self.error = ResponseStatusError(statusCode: status, method: request.method.rawValue,
                                         path: Self.pathWithoutQuery(request.path), authenticateChallenge: challenge,
                                         serverErrorCode: code)
    }

    /// The SDK's view of `response`, for its error formats.
    private static func sdkResponse(_ response: HTTPTypes.HTTPResponse) -> NetworkService.HTTPResponse {
        var fields: [String: String] = [:]
        for field in response.headerFields { fields[field.name.canonicalName] = field.value }
        return NetworkService.HTTPResponse(statusCode: response.status.code, headerFields: fields)
    }

    /// `path` up to its query: a query may carry secrets, and errors never show it.
    private static func pathWithoutQuery(_ path: String?) -> String {
        guard let path else { return "/" }
        return String(path.prefix { $0 != "?" })
    }
}
