public import Foundation

extension Server {
    /// This server, proving possession of `signer`'s key with a DPoP proof (RFC 9449) on each
    /// request that carries a DPoP-bound token (``AccessToken/Scheme/dpop``), or on every
    /// request when `everyRequest` is true (a token request, say: it carries no access token,
    /// so its proof has no `ath`).
    ///
    /// A request with a DPoP-bound token is sent as `Authorization: DPoP <token>` with a proof
    /// holding the token's hash; a bearer token is still sent as `Bearer`. Each server's latest
    /// `DPoP-Nonce` is kept, by origin, and put in the next proof to it; a nonce challenge (a
    /// 400 or 401 saying `use_dpop_nonce`, with a new nonce) is answered by sending the request
    /// once more with a new proof, and a second one reaches the caller as a ``NetworkError``
    /// whose ``NetworkError/isDPoPNonceChallenge`` is true.
    ///
    /// ```swift
    /// let api = try Server(baseURL: "https://api.example.com").proving(signer)
    /// let me: Member = try await api.send(MemberEndpoint.me, accessToken: AccessToken(token, scheme: .dpop))
    /// ```
    public func proving(_ signer: any DPoPSigner, everyRequest: Bool = false) -> Server {
        proving(DPoPProofing(signer: signer), everyRequest: everyRequest)
    }

    /// This server, proving with `proofing`'s key, nonces and clock, as ``proving(_:everyRequest:)`` describes.
    package func proving(_ proofing: DPoPProofing, everyRequest: Bool = false) -> Server {
        var server = self
        server.proofing = proofing
        server.provesEveryRequest = everyRequest
        return server
    }

    /// The `Authorization` and `DPoP` header fields of a `method` request to `url` carrying
    /// `accessToken`, for a handler that builds its own requests: `Authorization: DPoP <token>`
    /// and a proof with the token's hash for a DPoP-bound token, `Authorization: Bearer <token>`
    /// for a bearer one (with a proof without `ath` when the server proves every request).
    ///
    /// The proof names `url` without its query and fragment, and carries the latest nonce of
    /// `url`'s origin. Make new fields for every request, a retry included: a proof is good once.
    ///
    /// ```swift
    /// var request = URLRequest(url: url)
    /// for (name, value) in try server.authorizationFields(method: .get, url: url, accessToken: token) {
    ///     request.setValue(value, forHTTPHeaderField: name)
    /// }
    /// ```
    /// - Throws: ``NetworkError`` of kind `.invalidRequest`: a DPoP-bound token on a server that
    ///   does not prove, a `url` that is not http(s) with a host, or a signer that could not sign.
    public func authorizationFields(method: HTTPMethod, url: URL, accessToken: AccessToken?) throws(NetworkError) -> [String: String] {
        var fields: [String: String] = [:]
        if let accessToken { fields["Authorization"] = try authorization(for: accessToken, method: method, path: url.path) }
        guard let proofing, provesEveryRequest || accessToken?.scheme == .dpop else { return fields }
        guard let target = DPoPTarget(url) else {
            throw Self.invalid("a DPoP proof needs an http or https URL with a host", method: method, path: url.path)
        }
        fields[DPoPProof.headerName] = try Self.sign(
            method: method, path: url.path, with: proofing, htu: target.htu, origin: RedirectPolicy.origin(of: url),
            accessToken: accessToken?.scheme == .dpop ? accessToken : nil)
        return fields
    }

    /// For a handler that sends its own requests with ``authorizationFields(method:url:accessToken:)``:
    /// keeps `response`'s `DPoP-Nonce`, if it has a usable one, as the latest of `url`'s origin,
    /// so the next proof to that origin carries it, and says whether `response` is a nonce
    /// challenge: a 400 or 401 saying `use_dpop_nonce` (as `errorCode`, or in a
    /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` challenge) with a new nonce (RFC 9449 §8,
    /// §9). Answer a challenge by sending the request once more with new fields; a second
    /// challenge goes to the caller. A server that does not prove keeps nothing and sees none.
    ///
    /// ```swift
    /// var (data, response) = try await send(fields: server.authorizationFields(method: .get, url: url, accessToken: token))
    /// if server.noteDPoPNonce(of: response, from: url) {
    ///     (data, response) = try await send(fields: server.authorizationFields(method: .get, url: url, accessToken: token))
    /// }
    /// ```
    @discardableResult
    public func noteDPoPNonce(of response: HTTPResponse, from url: URL, errorCode: ServerErrorCode? = nil) -> Bool {
        guard let proofing else { return false }
        let origin = RedirectPolicy.origin(of: url)
        guard let nonce = DPoPChallenge.nonce(challengedBy: response, errorCode: errorCode) else {
            proofing.nonces.remember(from: response, origin: origin)
            return false
        }
        return proofing.nonces.remember(nonce, forOrigin: origin)
    }

    /// The `Authorization` value for `token`.
    /// - Throws: ``NetworkError`` `.invalidRequest` for a DPoP-bound token on a server without proofing.
    func authorization(for token: AccessToken, method: HTTPMethod, path: String) throws(NetworkError) -> String {
        switch token.scheme {
        case .bearer:
            return "Bearer " + token.rawValue
        case .dpop:
            guard proofing != nil else {
                throw Self.invalid("the access token is bound to a DPoP key and this server sends no DPoP proofs "
                                   + "(make it with Server.proving(_:))", method: method, path: path)
            }
            return DPoPProof.authorizationScheme + " " + token.rawValue
        }
    }

    /// The proof of a `method` request to `path` (an endpoint's rendered path) carrying
    /// `token` (the token it sends, if any), or `nil` when it needs none.
    /// - Throws: ``NetworkError`` `.invalidRequest` when the signer could not sign.
    func proof(method: HTTPMethod, path: String, carrying token: AccessToken?, nonce: String? = nil) throws(NetworkError) -> String? {
        guard let proofing else { return nil }
        let bound = token?.scheme == .dpop ? token : nil
        guard bound != nil || provesEveryRequest else { return nil }
        return try Self.sign(method: method, path: path, with: proofing, htu: htuPrefix + path, origin: origin,
                             accessToken: bound, nonce: nonce)
    }

    private static func sign(method: HTTPMethod, path: String, with proofing: DPoPProofing, htu: String, origin: String,
                             accessToken: AccessToken?, nonce: String? = nil) throws(NetworkError) -> String {
        do {
            return try proofing.proof(method: method, htu: htu, origin: origin, accessToken: accessToken, nonce: nonce)
        } catch {
            throw NetworkError(kind: .invalidRequest, method: method, path: path,
                               serverMessage: "the DPoP proof could not be signed", underlying: error)
        }
    }

    private static func invalid(_ reason: String, method: HTTPMethod, path: String) -> NetworkError {
        NetworkError(kind: .invalidRequest, method: method, path: path, serverMessage: reason)
    }
}
