import Foundation
import NetworkService

/// A form-encoded POST to an OAuth 2.0 endpoint, with the client's authentication.
struct OAuth2Endpoint: Endpoint {
    let path: EndpointPath
    let client: OAuth2TokenClient
    let fields: [(name: String, value: String)]
    /// The values to redact from errors besides the client secret (a refresh token, a password).
    let tokenSecrets: [String]

    init(path: EndpointPath, client: OAuth2TokenClient, fields: [(name: String, value: String)], secrets: [String]) {
        self.path = path
        self.client = client
        self.fields = fields
        self.tokenSecrets = secrets
    }

    var method: HTTPMethod { .post }
    var authentication: EndpointAuthentication { .none }

    var headers: [String: String] {
        guard client.clientAuthentication == .basic else { return [:] }
        // RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
        let pair = PercentEncoding.formEncode(client.clientID) + ":" + PercentEncoding.formEncode(client.clientSecret ?? "")
        return ["Authorization": "Basic " + Data(pair.utf8).base64EncodedString()]
    }

    var body: RequestBody {
        switch client.clientAuthentication {
        case .basic:
            return .form(fields)
        case .requestBody:
            return .form(fields + [("client_id", client.clientID), ("client_secret", client.clientSecret ?? "")])
        case .none:
            return .form(fields + [("client_id", client.clientID)])
        }
    }

    var secrets: [String] { tokenSecrets + (client.clientSecret.map { [$0] } ?? []) }
}

/// The token endpoint's successful reply (RFC 6749 §5.1).
struct OAuth2TokenReply: Decodable, Sendable {
    let accessToken: String
    let tokenType: String?
    let expiresIn: TimeInterval?
    let refreshToken: String?
    let scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        // Some servers send expires_in as a string ("3600").
        if let seconds = try? container.decodeIfPresent(TimeInterval.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { TimeInterval($0) }
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }

    /// The reply as ``Tokens``; without a new refresh token (or with an empty one), `previous`
    /// is kept. An empty access token, a token outside visible ASCII and a token type other
    /// than Bearer are refused (``TokenSyntax``): they could only break the session.
    /// `proved`: the request carried a DPoP proof, so a `DPoP` token type is understood.
    func tokens(keeping previous: String?, endpoint: EndpointPath, proved: Bool = false) throws(NetworkError) -> Tokens {
        if let problem = TokenSyntax.problem(withToken: accessToken, named: "access_token")
            ?? refreshToken.flatMap({ $0.isEmpty ? nil : TokenSyntax.problem(withToken: $0, named: "refresh_token") })
            ?? TokenSyntax.problem(withTokenType: tokenType, proved: proved) {
            throw NetworkError(kind: .decoding, method: .post, path: endpoint.rendered, statusCode: 200,
                               serverMessage: "the token endpoint's answer cannot be used: \(problem)")
        }
        guard let refreshToken = refreshToken.flatMap({ $0.isEmpty ? nil : $0 }) ?? previous else {
            throw NetworkError(kind: .decoding, method: .post, path: endpoint.rendered, statusCode: 200,
                               serverMessage: "the token endpoint issued no refresh token, so the session could not be kept")
        }
        return Tokens(accessToken: AccessToken(accessToken), refreshToken: refreshToken, tokenType: tokenType ?? "Bearer",
                      expiresIn: expiresIn, scope: scope)
    }
}
