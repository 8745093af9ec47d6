import Foundation
public import AppSDKTesting

/// What a ``HostileScript`` answer knows about the request it answers: the request, the
/// route, where the provider's endpoints are, and the other origin a redirect can send the
/// client to.
public struct HostileContext: Sendable {
    /// The request.
    public let request: LoopbackHTTPServer.Request
    /// The endpoint it reached.
    public let route: HostileProvider.Route
    /// The provider's origin as the client sees it (`http://127.0.0.1:PORT`, or `https://`).
    public let origin: String
    /// The issuer's path.
    public let issuerPath: String
    /// The other origin, `http://127.0.0.1:OTHERPORT`.
    public let trapBaseURL: String
    /// The client authentication the discovery document lists (``HostileScript/clientAuthentication``).
    public let clientAuthentication: String
    /// Whether the session proves possession of a DPoP key (``HostileScript/dpop``).
    public let dpop: Bool

    /// The issuer, as the discovery document names it.
    public var issuer: String { origin + issuerPath }

    /// The URL of one of the provider's endpoints (`token`, `device`, `userinfo`, `revoke`,
    /// `api/me`, or `.well-known/openid-configuration`).
    public func endpoint(_ name: String) -> String { issuer + "/" + name }

    /// The request's form fields.
    public var form: [String: String] {
        Dictionary(FormDecoding.fields(of: request.body).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The grant a token request asks for (`client_credentials`, `refresh_token`,
    /// `urn:ietf:params:oauth:grant-type:device_code`).
    public var grantType: String? { form["grant_type"] }

    /// The client secret the request carried, in a `client_secret` field or the Basic
    /// credentials (decoded); `nil` without one.
    public var receivedClientSecret: String? {
        if let secret = form["client_secret"] { return secret }
        guard let header = request.header("Authorization"), header.hasPrefix("Basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6))) else { return nil }
        let pair = String(decoding: data, as: UTF8.self)
        return pair.firstIndex(of: ":").map { FormDecoding.decode(String(pair[pair.index(after: $0)...])) }
    }

    /// The client secret as the request carried it on the wire: the Basic header's base64,
    /// or the form-encoded field as it was in the body.
    public var receivedClientSecretOnTheWire: String? {
        if let header = request.header("Authorization"), header.hasPrefix("Basic ") { return String(header.dropFirst(6)) }
        let body = String(decoding: request.body, as: UTF8.self)
        return body.split(separator: "&").first { $0.hasPrefix("client_secret=") }.map { String($0.dropFirst(14)) }
    }

    /// The Bearer token the request carried.
    public var bearerToken: String? {
        request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }

    /// The DPoP proof the request carried (its `DPoP` header), if any.
    public var proof: String? { request.header("DPoP") }

    /// The access token the request carried: as `Bearer`, or as `DPoP` with a proof (RFC 9449 §7.1).
    public var accessToken: String? {
        if let bearerToken { return bearerToken }
        guard proof != nil, let header = request.header("Authorization"), header.hasPrefix("DPoP ") else { return nil }
        return String(header.dropFirst(5))
    }
}
