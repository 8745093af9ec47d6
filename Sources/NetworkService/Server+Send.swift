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
    /// - Throws: ``NetworkError`` of kind `.invalidRequest` when the endpoint needs a token
    ///   and none was given, or its body does not encode.
    public func makeRequest(for endpoint: some Endpoint, accessToken: AccessToken? = nil) throws(NetworkError) -> HTTPRequest {
        func invalid(_ reason: String, _ underlying: (any Error)? = nil) -> NetworkError {
            NetworkError(kind: .invalidRequest, method: endpoint.method, path: endpoint.path.rendered,
                         serverMessage: reason, underlying: underlying)
        }
        var text = basePrefix + endpoint.path.rendered
        let parameters = endpoint.query
        if !parameters.isEmpty {
            let query = QueryParameter.render(parameters)
            if !query.isEmpty { text += "?" + query }
        }
        guard let url = URL(string: text) else { throw invalid("the URL \(text) is not valid") }

        var headers = endpoint.headers
        headers.reserveCapacity(headers.count + 3)   // Accept, Authorization, Content-Type: one allocation
        headers["Accept"] = "application/json"
        switch endpoint.authentication {
        case .none:
            break
        case .bearer:
            guard let accessToken, !accessToken.rawValue.isEmpty else {
                throw invalid("the endpoint needs an access token and none was given")
            }
            headers["Authorization"] = "Bearer " + accessToken.rawValue
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
        return HTTPRequest(method: endpoint.method, url: url, headerFields: headers, body: body)
    }

    /// Sends the request and turns every failure into a ``NetworkError``; returns 2xx only.
    private func perform(_ endpoint: some Endpoint, accessToken: AccessToken?) async throws(NetworkError) -> (Data, HTTPResponse) {
        let request = try makeRequest(for: endpoint, accessToken: accessToken)
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
        guard response.isSuccess else {
            let secrets = Self.secrets(of: endpoint, accessToken: accessToken)
            let details = errorFormat.decode(response, data)
            let message = details == nil ? ServerErrorFormat.detailOnlyMessage(in: data) : details?.message
            throw NetworkError(
                kind: .httpStatus, method: endpoint.method, path: endpoint.path.rendered,
                statusCode: response.statusCode, serverErrorCode: details?.code,
                serverMessage: message.map { Redaction.redact($0, secrets: secrets) },
                authenticateChallenge: response.value(forHeaderField: "WWW-Authenticate").map { Redaction.redact($0, secrets: secrets) },
                responseSnippet: details == nil && message == nil ? Redaction.snippet(of: Array(data), secrets: secrets) : nil,
                retryAfter: RetryAfter.seconds(response.value(forHeaderField: "Retry-After"), now: Date())
            )
        }
        return (data, response)
    }

    /// What an error about `endpoint` must not show: the access token and the endpoint's own
    /// secrets. Built only when an error is, never on the success path.
    static func secrets(of endpoint: some Endpoint, accessToken: AccessToken?) -> [String] {
        (accessToken.map { [$0.rawValue] } ?? []) + endpoint.secrets
    }
}
