import Foundation
import FuzzSupport
@testable import NetworkService

/// The `WWW-Authenticate` challenge parser (`BearerChallenge`, RFC 6750 §3 / RFC 9110 §11.2)
/// and the error format built on it (`ServerErrorFormat.bearerChallenge`).
/// Invariants: parameters exist exactly when a Bearer challenge is found; their names are
/// lowercase and non-empty; the error format claims the response exactly when a non-empty
/// `error` parameter is there, with that code and `error_description`; one answer per header.
@main enum WWWAuthenticateFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        let header = input.text
        let parameters = BearerChallenge.parameters(of: header)
        require((parameters != nil) == BearerChallenge.hasBearerChallenge(header), "parameters and hasBearerChallenge disagree")
        for name in parameters?.keys ?? [:].keys {
            require(!name.isEmpty && name == name.lowercased(), "parameter name `\(name)` not lowercase and non-empty")
        }
        require(BearerChallenge.parameters(of: header) == parameters, "two reads of one header differ")
        let response = HTTPResponse(statusCode: 401, headerFields: ["WWW-Authenticate": header])
        let details = ServerErrorFormat.bearerChallenge.decode(response, Data())
        if let error = parameters?["error"], !error.isEmpty {
            require(details == ServerErrorDetails(code: ServerErrorCode(rawValue: error), message: parameters?["error_description"]),
                    "the error format read \(String(describing: details)), the parser \(error)")
        } else {
            require(details == nil, "the error format claimed a challenge without an error")
        }
    }
}
