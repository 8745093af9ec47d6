import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Discovery of an authorization server's metadata (OpenID Connect Discovery 1.0, RFC 8414),
/// and the per-process cache of what was discovered. The issuer must be https, or plain http
/// on a loopback host (a server in tests); a document fetched over https must name https
/// endpoints only (an http one is malformed); one fetched over http on loopback may name
/// either, but an http endpoint only on a loopback host (``/NetworkService/PlainHTTPRule``).
enum Discovery {
    /// Metadata by issuer (without a trailing slash), for the life of the process.
    private static let cache = LockedValue<[String: AuthorizationServerMetadata]>([:])

    /// The issuer's metadata, from the cache or the server.
    static func metadata(issuer: URL, transport: any HTTPTransport) async throws(SignInError) -> AuthorizationServerMetadata {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              components.host?.isEmpty == false, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil else {
            throw SignInError.discoveryDocumentMissing.with(detail:
                "The issuer \(AuthorizationServerClient.shown(issuer)) is not an http(s) URL without a query, fragment or user info.")
        }
        if let reason = PlainHTTPRule.refusal(scheme: scheme, host: components.host, port: components.port) {
            throw SignInError.insecureURL.with(detail: "The issuer \(AuthorizationServerClient.shown(issuer)) is refused: \(reason).")
        }
        // `HTTP://Auth.Example.com` is the issuer `http://auth.example.com` (RFC 3986 §6.2.2.1).
        components.scheme = scheme
        components.host = components.host?.lowercased()
        let issuer = components.url ?? issuer
        let key = normalized(issuer.absoluteString)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var tried: [String] = []
        for url in documentURLs(for: components) {
            tried.append(url.absoluteString)
            let data: Data
            do {
                (data, _) = try await send(url, transport: transport)
            } catch let error where error.kind == .httpStatus && [404, 410].contains(error.statusCode ?? 0) {
                continue
            } catch {
                throw SignInError.from(error, endpoint: "discovery document at \(url.absoluteString)")
            }
            let metadata = try parse(data, from: url)
            guard normalized(metadata.issuer.absoluteString) == key else {
                throw SignInError.issuerMismatch.with(detail: "\(url.absoluteString) names the issuer "
                    + "\(metadata.issuer.absoluteString), not \(issuer.absoluteString).")
            }
            cache.withLock { $0[key] = metadata }
            return metadata
        }
        throw SignInError.discoveryDocumentMissing.with(detail: "Neither \(tried.joined(separator: " nor ")) exists.")
    }

    /// `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery §4.1), then the
    /// RFC 8414 §3.1 URL: `/.well-known/oauth-authorization-server` inserted between the host
    /// and the issuer's path.
    static func documentURLs(for issuer: URLComponents) -> [URL] {
        let path = normalized(issuer.percentEncodedPath)
        var openID = issuer
        openID.percentEncodedPath = path + "/.well-known/openid-configuration"
        var oauth = issuer
        oauth.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
        return [openID.url, oauth.url].compactMap { $0 }
    }

    private static func send(_ url: URL, transport: any HTTPTransport) async throws(NetworkError) -> (Data, HTTPResponse) {
        let client = AuthorizationServerClient(transport: transport, clientID: "", clientSecret: nil, usesBasicAuthentication: false)
        return try await client.send(HTTPRequest(method: .get, url: url, headerFields: ["Accept": "application/json"]), secrets: [])
    }

    /// The metadata in a discovery document.
    /// - Throws: ``SignInError/Kind/discoveryDocumentMalformed`` saying which field is wrong.
    static func parse(_ data: Data, from url: URL) throws(SignInError) -> AuthorizationServerMetadata {
        func malformed(_ reason: String) -> SignInError {
            SignInError.discoveryDocumentMalformed.with(detail: "\(url.absoluteString): \(reason).")
        }
        guard let document = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
            throw malformed("it is not a JSON object")
        }
        let secure = url.scheme?.lowercased() == "https"
        func endpoint(_ name: String, required: Bool = false) throws(SignInError) -> URL? {
            guard let value = document[name], value != .null else {
                if required { throw malformed("it has no `\(name)`") }
                return nil
            }
            guard let text = value.string, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "https" || scheme == "http", url.host?.isEmpty == false else {
                throw malformed("`\(name)` is not an absolute http(s) URL")
            }
            // A server reached over TLS does not send its tokens, codes or secrets in clear.
            guard !secure || scheme == "https" else {
                throw malformed("`\(name)` is http:, but the document came over https")
            }
            if let reason = PlainHTTPRule.refusal(of: url) {
                throw SignInError.insecureURL.with(detail: "The discovery document's `\(name)` "
                    + "(\(AuthorizationServerClient.shown(url))) is refused: \(reason).")
            }
            return url
        }
        func list(_ name: String) throws(SignInError) -> [String] {
            guard let value = document[name], value != .null else { return [] }
            guard let items = value.array?.compactMap(\.string), items.count == value.array?.count else {
                throw malformed("`\(name)` is not a list of strings")
            }
            return items
        }
        guard let issuer = try endpoint("issuer", required: true), let token = try endpoint("token_endpoint", required: true) else {
            throw malformed("it has no `issuer` or `token_endpoint`")
        }
        var metadata = AuthorizationServerMetadata(
            issuer: issuer, authorizationEndpoint: try endpoint("authorization_endpoint"), tokenEndpoint: token,
            deviceAuthorizationEndpoint: try endpoint("device_authorization_endpoint"),
            revocationEndpoint: try endpoint("revocation_endpoint"), userinfoEndpoint: try endpoint("userinfo_endpoint"),
            endSessionEndpoint: try endpoint("end_session_endpoint"), jwksURI: try endpoint("jwks_uri"),
            codeChallengeMethodsSupported: try list("code_challenge_methods_supported"),
            grantTypesSupported: try list("grant_types_supported"), scopesSupported: try list("scopes_supported"),
            tokenEndpointAuthMethodsSupported: try list("token_endpoint_auth_methods_supported"))
        if let value = document["dpop_signing_alg_values_supported"], value != .null {
            metadata.dpopSigningAlgValuesSupported = try list("dpop_signing_alg_values_supported")
        }
        return metadata
    }

    /// `text` without trailing slashes.
    static func normalized(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
