#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import NetworkService

/// One operation of a session bound to a DPoP key (RFC 9449): the URL and method its proofs
/// name, made once, and a proof made for each attempt (a proof is good once).
struct DPoPAttempt: Sendable {
    /// The operation's URL, as its proofs name it (their `htu` drops the query).
    let url: URL
    /// The operation's method.
    let method: NetworkService.HTTPMethod

    /// The attempt of `request` to `baseURL`.
    /// - Throws: `NetworkError` `.invalidRequest` for a method a proof cannot name here (the
    ///   SDK's `HTTPMethod`s) or a path that makes no URL.
    init(_ request: HTTPTypes.HTTPRequest, baseURL: URL) throws {
        let path = request.path ?? "/"
        guard let method = NetworkService.HTTPMethod(rawValue: request.method.rawValue) else {
            throw NetworkError(kind: .invalidRequest, method: .get, path: String(path.prefix { $0 != "?" }),
                               serverMessage: "a DPoP proof for a \(request.method.rawValue) request cannot be made: "
                                   + "the session's operations are GET, POST, PUT, PATCH or DELETE")
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + path) else {
            throw NetworkError(kind: .invalidRequest, method: method, path: String(path.prefix { $0 != "?" }),
                               serverMessage: "the operation's path does not make a URL with the server's")
        }
        self.url = url
        self.method = method
    }

    /// `request` with `Authorization: DPoP <token>` and a new proof of `server`'s key.
    func signed(_ request: HTTPTypes.HTTPRequest, server: Server, token: AccessToken) throws -> HTTPTypes.HTTPRequest {
        var request = request
        for (name, value) in try server.authorizationFields(method: method, url: url, accessToken: token) {
            guard let field = HTTPField.Name(name) else { continue }
            request.headerFields[field] = value
        }
        return request
    }

    /// Keeps `response`'s `DPoP-Nonce` for the next proof, and whether it is a nonce challenge.
    func isNonceChallenge(_ response: HTTPTypes.HTTPResponse, server: Server) -> Bool {
        var fields: [String: String] = [:]
        for field in response.headerFields { fields[field.name.canonicalName] = field.value }
        return server.noteDPoPNonce(of: NetworkService.HTTPResponse(statusCode: response.status.code, headerFields: fields), from: url)
    }
}
