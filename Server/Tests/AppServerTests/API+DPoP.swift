import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Requests as a DPoP client makes them, for the server's DPoP tests.
extension API {
    /// Sends a request with `proof` as its `DPoP` field (none when `nil`) and, when `token` is
    /// given, `Authorization: <scheme> <token>`.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, proof: String?, token: String? = nil, scheme: String = "DPoP",
              json: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "\(scheme) \(token)" }
        if let proof { headers[.dpopProof] = proof }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Signs up with a proof by `key` (carrying `nonce` when given).
    func signUp(_ email: String, key: DPoPTestKey, nonce: String? = nil, at now: Date = Date()) async throws -> TestResponse {
        try await send(.post, "/v1/auth/sign-up", proof: key.proof(.post, "/v1/auth/sign-up", nonce: nonce, at: now),
                       json: #"{"email":"\#(email)","password":"password-1","nickname":"nick"}"#)
    }

    /// Signs up with a proof by `key`, expecting a DPoP-bound session.
    func boundSignUp(_ email: String, key: DPoPTestKey, nonce: String? = nil, at now: Date = Date(),
                     sourceLocation: SourceLocation = #_sourceLocation) async throws -> TokensDTO {
        let response = try await signUp(email, key: key, nonce: nonce, at: now)
        #expect(response.status == .created, "\(response.text)", sourceLocation: sourceLocation)
        let tokens = try response.decode(AuthSessionDTO.self).tokens
        #expect(tokens.tokenType == "DPoP", sourceLocation: sourceLocation)
        return tokens
    }

    /// Refreshes with a proof by `key` (none when `nil`).
    func refresh(_ refreshToken: String, key: DPoPTestKey?, nonce: String? = nil, at now: Date = Date()) async throws -> TestResponse {
        try await send(.post, "/v1/auth/refresh", proof: key?.proof(.post, "/v1/auth/refresh", nonce: nonce, at: now),
                       json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    /// `GET /v1/members/me` with `DPoP <token>` and a proof by `key`.
    func me(_ token: String, key: DPoPTestKey, nonce: String? = nil, at now: Date = Date()) async throws -> TestResponse {
        try await send(.get, "/v1/members/me", proof: key.proof(.get, "/v1/members/me", accessToken: token, nonce: nonce, at: now), token: token)
    }
}

extension TestResponse {
    /// The `DPoP-Nonce` field, if any.
    var dpopNonce: String? { headers[.dpopNonceField] }
    /// The `WWW-Authenticate` field, if any.
    var challenge: String? { headers[.wwwAuthenticate] }
}

/// The claims of an access token, read without checking it (the server's tests check what it issued).
func accessTokenClaims(_ token: String) throws -> AccessTokenClaims {
    let parts = token.split(separator: ".")
    let payload = try #require(parts.count == 3 ? Base64URL.decode(parts[1]) : nil)
    return try JSONDecoder().decode(AccessTokenClaims.self, from: payload)
}

extension TestServer {
    /// The test configuration with DPoP in `mode`, nonces on when `nonces`.
    static func dpopConfiguration(_ mode: DPoPSettings.Mode, nonces: Bool = false, testMode: Bool = true) -> ServerConfiguration {
        var configuration = TestServer.configuration(testMode: testMode)
        configuration.dpop = DPoPSettings(mode: mode, requiresNonce: nonces)
        return configuration
    }
}
