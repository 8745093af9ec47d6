import Foundation

extension Server {
    /// Sends `endpoint` and decodes its JSON response.
    ///
    /// ```swift
    /// let page: Page<Post> = try await server.send(PostEndpoint.list(threshold: nil, pageSize: 20),
    ///                                              accessToken: token)
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - type: the response type; usually inferred.
    ///   - accessToken: required when the endpoint's ``Endpoint/authentication`` is `.bearer`.
    /// - Throws: ``NetworkError``: `.invalidRequest` before anything is sent (a bearer endpoint
    ///   without a token), `.transport` when no response came, `.httpStatus` for a status
    ///   outside 200–299, `.decoding` when a 2xx body is not a `Response`.
    public func send<Response: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: Response.Type = Response.self, accessToken: AccessToken? = nil
    ) async throws(NetworkError) -> Response {
        try await sendReadingHead(endpoint, as: type, accessToken: accessToken).0
    }

    /// Sends `endpoint` and decodes its JSON response, returning the response's head as well
    /// (its status and headers, such as the server's `Date`).
    ///
    /// - Throws: ``NetworkError``, as ``send(_:as:accessToken:)`` does.
    package func sendReadingHead<Response: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: Response.Type = Response.self, accessToken: AccessToken? = nil
    ) async throws(NetworkError) -> (Response, HTTPResponse) {
        let (data, response) = try await perform(endpoint, accessToken: accessToken)
        do {
            return (try JSONCoding.makeDecoder().decode(Response.self, from: data), response)
        } catch {
            throw NetworkError(
                kind: .decoding, method: endpoint.method, path: endpoint.path.rendered, statusCode: response.statusCode,
                serverMessage: Redaction.shape(ofSuccessBody: data, contentType: response.value(forHeaderField: "Content-Type")),
                underlying: error
            )
        }
    }

    /// Sends `endpoint`, whose success has no body to decode (for example 204 No Content).
    ///
    /// - Throws: ``NetworkError``, as ``send(_:as:accessToken:)`` does.
    public func send(_ endpoint: some Endpoint, accessToken: AccessToken? = nil) async throws(NetworkError) {
        _ = try await perform(endpoint, accessToken: accessToken)
    }

    /// The request that sending `endpoint` would put on the wire.
    ///
    /// On a server made with ``proving(_:everyRequest:)``, it carries a new DPoP proof (each
    /// call makes one: a proof is good for one request).
    ///
    /// - Throws: ``NetworkError`` of kind `.invalidRequest` when the endpoint needs a token
    ///   and none was given, the token is DPoP-bound and the server makes no proofs, the
    ///   signer could not sign, or its body does not encode.
    public func makeRequest(for endpoint: some Endpoint, accessToken: AccessToken? = nil) throws(NetworkError) -> HTTPRequest {
        let path = endpoint.path.rendered
        func invalid(_ reason: String, _ underlying: (any Error)? = nil) -> NetworkError {
            NetworkError(kind: .invalidRequest, method: endpoint.method, path: path,
                         serverMessage: reason, underlying: underlying)
        }
        var text = basePrefix + path
        let parameters = endpoint.query
        if !parameters.isEmpty {
            let query = QueryParameter.render(parameters)
            if !query.isEmpty { text += "?" + query }
        }
        guard let url = URL(string: text) else { throw invalid("the URL \(text) is not valid") }

        var headers = endpoint.headers
        headers.reserveCapacity(headers.count + 4)   // Accept, Authorization, Content-Type, DPoP: one allocation
        headers["Accept"] = "application/json"
        var sentToken: AccessToken?
        switch endpoint.authentication {
        case .none:
            break
        case .bearer:
            guard let accessToken, !accessToken.rawValue.isEmpty else {
                throw invalid("the endpoint needs an access token and none was given")
            }
            headers["Authorization"] = try authorization(for: accessToken, method: endpoint.method, path: path)
            sentToken = accessToken
        }
        var body: Data?
        switch endpoint.body {
        case .none:
            break
        case let .json(value):
            do {
                body = try JSONCoding.makeEncoder().encode(value)
            } catch {
                throw invalid("the body could not be encoded as JSON", error)
            }
            headers["Content-Type"] = "application/json"
        case let .form(fields):
            body = Data(RequestBody.formEncoded(fields).utf8)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        if let proof = try proof(method: endpoint.method, path: path, carrying: sentToken) {
            headers[DPoPProof.headerName] = proof
        }
        return HTTPRequest(method: endpoint.method, url: url, headerFields: headers, body: body)
    }

    /// Sends the request and turns every failure into a ``NetworkError``; returns 2xx only.
    ///
    /// On a proving server, every answer's `DPoP-Nonce` is kept, and a nonce challenge to a
    /// request with a proof is answered by exactly one more send of the same request (the same
    /// body bytes) with only its proof replaced: a new `jti` and the new nonce.
    private func perform(_ endpoint: some Endpoint, accessToken: AccessToken?) async throws(NetworkError) -> (Data, HTTPResponse) {
        var request = try makeRequest(for: endpoint, accessToken: accessToken)
        var (data, response) = try await exchange(request, for: endpoint)
        var details: ServerErrorDetails?
        if !response.isSuccess {
            details = errorFormat.decode(response, data)
            if proofing != nil, request.headerFields[DPoPProof.headerName] != nil,
               let nonce = DPoPChallenge.nonce(challengedBy: response, errorCode: details?.code) {
                let sentToken = endpoint.authentication == .none ? nil : accessToken
                request.headerFields[DPoPProof.headerName] = try proof(
                    method: endpoint.method, path: endpoint.path.rendered, carrying: sentToken, nonce: nonce)
                (data, response) = try await exchange(request, for: endpoint)
                details = response.isSuccess ? nil : errorFormat.decode(response, data)
            }
        }
        guard response.isSuccess else {
            var secrets = Self.secrets(of: endpoint, accessToken: accessToken)
            if let proofing {   // a server may echo the proof or its nonce: neither is ever shown
                secrets += [request.headerFields[DPoPProof.headerName], proofing.nonces.nonce(forOrigin: origin),
                            response.value(forHeaderField: DPoPNonces.headerName)].compactMap { $0 }
            }
            let message = details == nil ? ServerErrorFormat.detailOnlyMessage(in: data) : details?.message
            throw NetworkError(
                kind: .httpStatus, method: endpoint.method, path: endpoint.path.rendered,
                statusCode: response.statusCode, serverErrorCode: details?.code,
                serverMessage: message.map { Redaction.redact($0, secrets: secrets) },
                // Only the secrets here: NetworkError redacts the rest, after reading a step-up challenge's
                // acr_values, which a token-like redaction could cut.
                authenticateChallenge: response.value(forHeaderField: "WWW-Authenticate").map { Redaction.redactingSecrets($0, secrets) },
                responseSnippet: details == nil && message == nil ? Redaction.snippet(of: Array(data), secrets: secrets) : nil,
                retryAfter: RetryAfter.seconds(response.value(forHeaderField: "Retry-After"), now: Date())
            )
        }
        return (data, response)
    }

    /// One round trip of `request`, every failure a ``NetworkError``; on a proving server, the
    /// answer's `DPoP-Nonce` is kept for the next proof to this origin.
    private func exchange(_ request: HTTPRequest, for endpoint: some Endpoint) async throws(NetworkError) -> (Data, HTTPResponse) {
        func failure(_ kind: NetworkError.Kind, _ underlying: any Error) -> NetworkError {
            NetworkError(kind: kind, method: endpoint.method, path: endpoint.path.rendered, underlying: underlying)
        }
        let data: Data
        let response: HTTPResponse
        do {
            (data, response) = try await transport.send(request)
        } catch let error as TransportError {
            throw failure(.transport, error)
        } catch is CancellationError {
            throw failure(.cancelled, CancellationError())
        } catch {
            if Task.isCancelled { throw failure(.cancelled, error) }
            throw failure(.transport, TransportError(.other, underlying: error))
        }
        proofing?.nonces.remember(from: response, origin: origin)
        return (data, response)
    }

    /// What an error about `endpoint` must not show: the access token and the endpoint's own
    /// secrets. Built only when an error is, never on the success path.
    static func secrets(of endpoint: some Endpoint, accessToken: AccessToken?) -> [String] {
        (accessToken.map { [$0.rawValue] } ?? []) + endpoint.secrets
    }
}
