public import Foundation
public import AppSDKTesting

/// A well-behaved provider's answers, and the pieces the hostile modes build theirs from.
public enum HostileAnswers {
    /// The discovery document naming the provider's own endpoints.
    public static let discovery: HostileScript.Answer = { context in
        .respond(status: 200, headers: ["Content-Type": "application/json"], body: json(discoveryDocument(context)))
    }

    /// The token endpoint: an access token, and a refresh token for every grant but client credentials.
    public static let token: HostileScript.Answer = { context in
        .respond(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                 body: json(tokenFields(context)))
    }

    /// The device authorization endpoint: a device code, a user code, an https verification
    /// URI, 10 minutes, polling every second.
    public static let deviceAuthorization: HostileScript.Answer = { context in
        .respond(status: 200, headers: ["Content-Type": "application/json"], body: json(deviceFields()))
    }

    /// The userinfo endpoint: the signed-in account.
    public static let userinfo: HostileScript.Answer = { _ in
        .json(200, #"{"sub":"\#(HostileSecrets.subject)","name":"Alice"}"#)
    }

    /// The revocation endpoint: 200, empty (RFC 7009 §2.2).
    public static let revocation: HostileScript.Answer = { _ in .respond(status: 200) }

    /// The API: the signed-in account, for a request with the provider's access token (as
    /// `Bearer`, or as `DPoP` with a proof).
    public static let api: HostileScript.Answer = { context in
        context.accessToken == nil ? .json(401, #"{"error":"invalid_token"}"#, headers: ["WWW-Authenticate": "Bearer"])
            : .json(200, #"{"sub":"\#(HostileSecrets.subject)"}"#)
    }

    /// The discovery document's fields: the issuer, every endpoint on the provider, the
    /// grants, and the script's client authentication; with ``HostileScript/dpop``, the DPoP
    /// algorithms EdDSA and ES256.
    public static func discoveryDocument(_ context: HostileContext) -> [String: any Sendable] {
        var document: [String: any Sendable] = ["issuer": context.issuer,
                                                "token_endpoint": context.endpoint("token"),
                                                "device_authorization_endpoint": context.endpoint("device"),
                                                "userinfo_endpoint": context.endpoint("userinfo"),
                                                "revocation_endpoint": context.endpoint("revoke"),
                                                "grant_types_supported": ["client_credentials", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
                                                "token_endpoint_auth_methods_supported": [context.clientAuthentication],
                                                "code_challenge_methods_supported": ["S256"]]
        if context.dpop { document["dpop_signing_alg_values_supported"] = ["EdDSA", "ES256"] }
        return document
    }

    /// A token answer's fields for the request's grant (RFC 6749 §5.1): a `DPoP` token in
    /// answer to a request carrying a proof (RFC 9449 §5), else a `Bearer` one.
    public static func tokenFields(_ context: HostileContext) -> [String: any Sendable] {
        var fields: [String: any Sendable] = ["access_token": HostileSecrets.accessToken,
                                              "token_type": context.proof == nil ? "Bearer" : "DPoP", "expires_in": 3600]
        if context.grantType != "client_credentials" { fields["refresh_token"] = HostileSecrets.refreshToken }
        return fields
    }

    /// A device authorization answer's fields (RFC 8628 §3.2).
    public static func deviceFields() -> [String: any Sendable] {
        ["device_code": HostileSecrets.deviceCode, "user_code": HostileSecrets.userCode,
         "verification_uri": "https://auth.example.com/device", "expires_in": 600, "interval": 1]
    }

    /// `object` as JSON (keys sorted, `/` not escaped).
    public static func json(_ object: [String: any Sendable]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// `object` as JSON text.
    public static func jsonText(_ object: [String: any Sendable]) -> String {
        String(decoding: json(object), as: UTF8.self)
    }

    /// A 200 with `body` and the given content type.
    public static func ok(_ body: Data, contentType: String = "application/json") -> LoopbackHTTPServer.Reply {
        .respond(status: 200, headers: ["Content-Type": contentType], body: body)
    }

    /// A 200 with `text` and the given content type.
    public static func ok(_ text: String, contentType: String = "application/json") -> LoopbackHTTPServer.Reply {
        ok(Data(text.utf8), contentType: contentType)
    }

    /// An OAuth 2.0 error answer (RFC 6749 §5.2): `status` with `error` and `error_description`.
    public static func oauthError(_ status: Int, _ code: String, _ description: String,
                                  headers: [String: String] = [:]) -> LoopbackHTTPServer.Reply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return .respond(status: status, headers: headers, body: json(["error": code, "error_description": description]))
    }

    /// Bytes written as a whole HTTP/1.1 answer: `statusLine`, `headerLines` (each as given,
    /// so duplicated names and stray bytes stay), a `Content-Length` unless one is among them,
    /// `Connection: close`, and `body`.
    public static func raw(_ statusLine: String = "HTTP/1.1 200 OK", headerLines: [String], body: Data) -> LoopbackHTTPServer.Reply {
        var head = statusLine + "\r\n"
        for line in headerLines { head += line + "\r\n" }
        if !headerLines.contains(where: { $0.lowercased().hasPrefix("content-length:") }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return .raw(Data(head.utf8) + body)
    }
}
