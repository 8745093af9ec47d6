import Foundation
import NetworkService
import SessionEngine

/// Requests to the authorization server's endpoints, which are absolute URLs (from discovery)
/// that may be on another origin than the API's `Server`, so they are built here rather than
/// as `Endpoint`s of a `Server`. Failures are ``/NetworkService/NetworkError``s shaped as the
/// SDK's own (`.httpStatus` with the RFC 6749 §5.2 code), so the engine's refresh failure rules
/// read them as they read `OAuth2TokenClient`'s; the flows turn them into ``SignInError``s.
///
/// With ``proofing`` (a DPoP session's key, RFC 9449), every form POST carries a `DPoP` proof
/// and a request with a DPoP-bound token carries one with its `ath`; each answer's
/// `DPoP-Nonce` is kept for its origin, and a nonce challenge is answered by exactly one more
/// send (AuthorizationServerClient+DPoP.swift).
struct AuthorizationServerClient: Sendable {
    let transport: any HTTPTransport
    let clientID: String
    let clientSecret: String?
    /// `client_secret_basic` (the default every server supports) rather than `client_secret_post`.
    let usesBasicAuthentication: Bool
    /// The DPoP key requests prove possession of; `nil`: no proofs (a bearer session).
    let proofing: DPoPProofing?

    init(transport: any HTTPTransport, clientID: String, clientSecret: String?, usesBasicAuthentication: Bool,
         proofing: DPoPProofing? = nil) {
        self.transport = transport
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.usesBasicAuthentication = usesBasicAuthentication
        self.proofing = proofing
    }

    /// The provider's client: `client_secret_basic` unless the server lists only
    /// `client_secret_post`; proving with `proofing` when given.
    init(provider: OAuthProvider, proofing: DPoPProofing? = nil) {
        let methods = provider.metadata.tokenEndpointAuthMethodsSupported
        self.init(transport: provider.transport, clientID: provider.clientID, clientSecret: provider.clientSecret,
                  usesBasicAuthentication: methods.isEmpty || methods.contains("client_secret_basic")
                      || !methods.contains("client_secret_post"),
                  proofing: proofing)
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
        let (request, credentials) = try formRequest(url, fields)
        let reply = try await send(request, secrets: secrets + credentials)
        return (try object(from: reply, url: url, method: .post, secrets: secrets + credentials), reply.1.date)
    }

    /// POSTs as ``post(_:_:secrets:)`` does, for an endpoint whose 2xx body does not matter
    /// (RFC 7009 revocation answers 200 with any body).
    func postExpectingAnyBody(_ url: URL, _ fields: [(name: String, value: String)], secrets: [String]) async throws(NetworkError) -> Data {
        let (request, credentials) = try formRequest(url, fields)
        return try await send(request, secrets: secrets + credentials).0
    }

    /// The form POST, authenticated as the client, and the client credentials it carries (the
    /// Basic header's base64, which decodes to the secret) to keep out of errors. With
    /// ``proofing``, it carries a DPoP proof without `ath` (RFC 9449 §5).
    /// - Throws: `.invalidRequest` when the proof cannot be made.
    private func formRequest(_ url: URL, _ fields: [(name: String, value: String)]) throws(NetworkError) -> (HTTPRequest, [String]) {
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
        if proofing != nil { headers[DPoPProof.headerName] = try proof(.post, url, accessToken: nil) }
        return (HTTPRequest(method: .post, url: url, headerFields: headers, body: Data(FormEncoding.body(fields).utf8)), credentials)
    }

    /// GETs `url` (with `accessToken` when given) and returns the JSON object of a 2xx answer.
    /// A bearer token goes as `Authorization: Bearer`; a DPoP-bound one
    /// (``/NetworkService/AccessToken/Scheme/dpop``) as `Authorization: DPoP` with a proof
    /// carrying its `ath` (RFC 9449 §7).
    /// - Throws: `.invalidRequest`, before sending, for a DPoP-bound token without ``proofing``.
    func get(_ url: URL, accessToken: AccessToken? = nil) async throws(NetworkError) -> [String: JSONValue] {
        var headers = ["Accept": "application/json"]
        if let accessToken {
            headers.merge(try authorizationFields(.get, url, accessToken: accessToken)) { $1 }
        }
        let secrets = accessToken.map { [$0.rawValue] } ?? []
        let request = HTTPRequest(method: .get, url: url, headerFields: headers)
        return try await object(from: send(request, secrets: secrets, accessToken: accessToken), url: url, method: .get,
                                secrets: secrets)
    }

    /// Sends `request`; a status outside 2xx is a `.httpStatus` error with the RFC 6749 §5.2
    /// (or RFC 6750 challenge) code and description read from the answer.
    ///
    /// A request carrying a DPoP proof that is answered by a nonce challenge (a 400 or 401 with
    /// `use_dpop_nonce` and a new `DPoP-Nonce`) is sent exactly once more, the same bytes with
    /// only its proof replaced (a new `jti`, the nonce); a second challenge is the error, whose
    /// ``/NetworkService/NetworkError/isDPoPNonceChallenge`` is true. `accessToken` is the
    /// token the request carries, for the new proof's `ath`.
    func send(_ request: HTTPRequest, secrets: [String], accessToken: AccessToken? = nil) async throws(NetworkError) -> (Data, HTTPResponse) {
        let path = Self.path(of: request.url)
        // Every request here carries a secret or leads to one (a discovery document names where
        // secrets go): none goes over plain http to another host, or to a port no socket has.
        if let reason = PlainHTTPRule.refusal(of: request.url) {
            throw NetworkError(kind: .insecureURL, method: request.method, path: path,
                               serverMessage: "\(Self.shown(request.url)): \(reason)")
        }
        var request = request
        var (data, response) = try await exchange(request, path: path)
        var details = response.isSuccess ? nil : Self.errorFormat.decode(response, data)
        var seen = dpopValues(of: request, response)
        if !response.isSuccess, let nonce = nonceToRetryWith(request, response, details) {
            request.headerFields[DPoPProof.headerName] = try proof(request.method, request.url, accessToken: accessToken, nonce: nonce)
            (data, response) = try await exchange(request, path: path)
            details = response.isSuccess ? nil : Self.errorFormat.decode(response, data)
            seen += dpopValues(of: request, response)
        }
        guard response.isSuccess else {
            // A server may echo a proof or a nonce: neither is ever shown.
            let secrets = secrets + seen
            let message = details == nil ? ServerErrorFormat.detailOnlyMessage(in: data) : details?.message
            throw NetworkError(kind: .httpStatus, method: request.method, path: path, statusCode: response.statusCode,
                               serverErrorCode: details?.code,
                               serverMessage: message.map { redact($0, secrets) },
                               authenticateChallenge: response.value(forHeaderField: "WWW-Authenticate").map { redact($0, secrets) },
                               responseSnippet: details == nil && message == nil ? snippet(data, secrets) : nil)
        }
        return (data, response)
    }

    /// How error answers are read: RFC 6749 §5.2's JSON, else an RFC 6750 challenge.
    private static let errorFormat = ServerErrorFormat.firstMatch([.oauth2, .bearerChallenge])

    /// One round trip of `request`, every failure a ``/NetworkService/NetworkError``; the
    /// answer's `DPoP-Nonce` is kept for its origin when this client proves.
    private func exchange(_ request: HTTPRequest, path: String) async throws(NetworkError) -> (Data, HTTPResponse) {
        let reply: (Data, HTTPResponse)
        do {
            reply = try await transport.send(request)
        } catch is CancellationError {
            throw NetworkError(kind: .cancelled, method: request.method, path: path)
        } catch {
            throw NetworkError(kind: .transport, method: request.method, path: path, underlying: error)
        }
        proofing?.nonces.remember(from: reply.1, origin: RedirectPolicy.origin(of: request.url))
        return reply
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
