import Foundation
import NetworkService
import SessionEngine

/// Requests to the authorization server's endpoints, which are absolute URLs (from discovery)
/// that may be on another origin than the API's `Server`, so they are built here rather than
/// as `Endpoint`s of a `Server`. Failures are ``/NetworkService/NetworkError``s shaped as the
/// SDK's own (`.httpStatus` with the RFC 6749 §5.2 code), so the engine's refresh failure rules
/// read them as they read `OAuth2TokenClient`'s; the flows turn them into ``SignInError``s.
struct AuthorizationServerClient: Sendable {
    let transport: any HTTPTransport
    let clientID: String
    let clientSecret: String?
    /// `client_secret_basic` (the default every server supports) rather than `client_secret_post`.
    let usesBasicAuthentication: Bool

    init(transport: any HTTPTransport, clientID: String, clientSecret: String?, usesBasicAuthentication: Bool) {
        self.transport = transport
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.usesBasicAuthentication = usesBasicAuthentication
    }

    /// The provider's client: `client_secret_basic` unless the server lists only `client_secret_post`.
    init(provider: OAuthProvider) {
        let methods = provider.metadata.tokenEndpointAuthMethodsSupported
        self.init(transport: provider.transport, clientID: provider.clientID, clientSecret: provider.clientSecret,
                  usesBasicAuthentication: methods.isEmpty || methods.contains("client_secret_basic")
                      || !methods.contains("client_secret_post"))
    }

    /// POSTs `fields` form-encoded to `url`, with the client's authentication (RFC 6749 §2.3.1),
    /// and returns the JSON object of a 2xx answer.
    /// - Parameter secrets: values in `fields` to keep out of errors (the client secret is always kept out).
    func post(_ url: URL, _ fields: [(name: String, value: String)], secrets: [String]) async throws(NetworkError) -> [String: JSONValue] {
        try await postReadingDate(url, fields, secrets: secrets).object
    }

    /// POSTs as ``post(_:_:secrets:)`` does, and also returns the answer's `Date` header (the
    /// server's clock, for the clock offset: token responses).
    func postReadingDate(_ url: URL, _ fields: [(name: String, value: String)],
                         secrets: [String]) async throws(NetworkError) -> (object: [String: JSONValue], serverDate: Date?) {
        let (request, credentials) = formRequest(url, fields)
        let reply = try await send(request, secrets: secrets + credentials)
        return (try object(from: reply, url: url, method: .post, secrets: secrets + credentials), reply.1.date)
    }

    /// POSTs as ``post(_:_:secrets:)`` does, for an endpoint whose 2xx body does not matter
    /// (RFC 7009 revocation answers 200 with any body).
    func postExpectingAnyBody(_ url: URL, _ fields: [(name: String, value: String)], secrets: [String]) async throws(NetworkError) -> Data {
        let (request, credentials) = formRequest(url, fields)
        return try await send(request, secrets: secrets + credentials).0
    }

    /// The form POST, authenticated as the client, and the client credentials it carries (the
    /// Basic header's base64, which decodes to the secret) to keep out of errors.
    private func formRequest(_ url: URL, _ fields: [(name: String, value: String)]) -> (HTTPRequest, [String]) {
        var credentials: [String] = []
        var fields = fields
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        if let clientSecret, usesBasicAuthentication {
            let pair = FormEncoding.encode(clientID) + ":" + FormEncoding.encode(clientSecret)
            let encoded = Data(pair.utf8).base64EncodedString()
            headers["Authorization"] = "Basic " + encoded
            credentials = [encoded, pair]
        } else {
            fields.append(("client_id", clientID))
            if let clientSecret { fields.append(("client_secret", clientSecret)) }
        }
        return (HTTPRequest(method: .post, url: url, headerFields: headers, body: Data(FormEncoding.body(fields).utf8)), credentials)
    }

    /// GETs `url` (with `Authorization: Bearer` when `bearer` is given) and returns the JSON
    /// object of a 2xx answer.
    func get(_ url: URL, bearer: String? = nil) async throws(NetworkError) -> [String: JSONValue] {
        var headers = ["Accept": "application/json"]
        if let bearer { headers["Authorization"] = "Bearer " + bearer }
        let secrets = bearer.map { [$0] } ?? []
        let request = HTTPRequest(method: .get, url: url, headerFields: headers)
        return try await object(from: send(request, secrets: secrets), url: url, method: .get, secrets: secrets)
    }

    /// Sends `request`; a status outside 2xx is a `.httpStatus` error with the RFC 6749 §5.2
    /// (or RFC 6750 challenge) code and description read from the answer.
    func send(_ request: HTTPRequest, secrets: [String]) async throws(NetworkError) -> (Data, HTTPResponse) {
        let path = Self.path(of: request.url)
        // Every request here carries a secret or leads to one (a discovery document names where
        // secrets go): none goes over plain http to another host, or to a port no socket has.
        if let reason = PlainHTTPRule.refusal(of: request.url) {
            throw NetworkError(kind: .insecureURL, method: request.method, path: path,
                               serverMessage: "\(Self.shown(request.url)): \(reason)")
        }
        let data: Data
        let response: HTTPResponse
        do {
            (data, response) = try await transport.send(request)
        } catch is CancellationError {
            throw NetworkError(kind: .cancelled, method: request.method, path: path)
        } catch {
            throw NetworkError(kind: .transport, method: request.method, path: path, underlying: error)
        }
        guard response.isSuccess else {
            let details = ServerErrorFormat.firstMatch([.oauth2, .bearerChallenge]).decode(response, data)
            let message = details == nil ? ServerErrorFormat.detailOnlyMessage(in: data) : details?.message
            throw NetworkError(kind: .httpStatus, method: request.method, path: path, statusCode: response.statusCode,
                               serverErrorCode: details?.code,
                               serverMessage: message.map { redact($0, secrets) },
                               authenticateChallenge: response.value(forHeaderField: "WWW-Authenticate").map { redact($0, secrets) },
                               responseSnippet: details == nil && message == nil ? snippet(data, secrets) : nil)
        }
        return (data, response)
    }

    private func object(from reply: (Data, HTTPResponse), url: URL, method: HTTPMethod,
                        secrets: [String]) throws(NetworkError) -> [String: JSONValue] {
        // Neither a snippet nor the decoder's error (which quotes a character or a key): a
        // successful answer is never quoted, whatever its shape.
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: reply.0) else {
            let shape = Redaction.shape(ofSuccessBody: reply.0, contentType: reply.1.value(forHeaderField: "Content-Type"))
            throw NetworkError(kind: .decoding, method: method, path: Self.path(of: url), statusCode: reply.1.statusCode,
                               serverMessage: "it is not a JSON object; " + shape)
        }
        return object
    }

    /// The URL's path as sent, a trailing slash kept (`URL.path` drops it on Linux).
    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return path.isEmpty ? "/" : path
    }

    private var allSecrets: [String] { clientSecret.map { [$0] } ?? [] }

    /// `text` with every secret (and the client secret) replaced by `<redacted>`, in each of the
    /// encodings a server may echo it in (raw, form- or percent-encoded, base64, JSON-escaped).
    private func redact(_ text: String, _ secrets: [String]) -> String {
        Redaction.redactingSecrets(text, secrets + allSecrets)
    }

    /// `url` without its query and fragment (they may carry a secret).
    static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the URL" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "the URL"
    }

    /// At most 80 characters of an unexpected body, secrets redacted.
    private func snippet(_ data: Data, _ secrets: [String]) -> String? {
        guard !data.isEmpty else { return nil }
        let text = redact(String(decoding: data.prefix(4096), as: UTF8.self), secrets)
        return String(text.prefix(80))
    }
}
