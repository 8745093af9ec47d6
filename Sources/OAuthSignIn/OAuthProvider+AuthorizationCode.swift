import Foundation
import NetworkService
import SessionEngine
import TokenStore

// The authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636), through the loopback
// listener or a callback the app received itself.

extension OAuthProvider {
    /// Builds an authorization request (see ``authorizationRequest(redirectURI:scopes:)``); with
    /// `proofing`, one that binds the code to its key (`dpop_jkt`, RFC 9449 §10) and keeps the
    /// key for the code exchange, once the server is known to take its algorithm.
    func makeAuthorizationRequest(redirectURI: URL, scopes: [String], proofing: DPoPProofing? = nil,
                                  dpopKey: DPoPKey? = nil, requirement: AuthenticationRequirement? = nil) throws(SignInError) -> AuthorizationRequest {
        guard let endpoint = metadata.authorizationEndpoint,
              var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw SignInError.flowUnavailable.with(detail: "The server has no authorization endpoint.")
        }
        guard metadata.supportsS256 else {
            throw SignInError.pkceS256Unsupported.with(detail: "Its code_challenge_methods_supported is "
                + (metadata.codeChallengeMethodsSupported.isEmpty ? "missing." : "[\(metadata.codeChallengeMethodsSupported.joined(separator: ", "))]."))
        }
        if let proofing { try checkDPoPSupport(of: proofing) }
        let verifier = PKCE.makeVerifier()
        let state = PKCE.randomToken()
        let nonce = scopes.contains("openid") ? PKCE.randomToken() : nil
        var fields = [("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
                      ("scope", scopes.joined(separator: " ")), ("state", state),
                      ("code_challenge", PKCE.challenge(of: verifier)), ("code_challenge_method", "S256")]
        if let nonce { fields.append(("nonce", nonce)) }
        fields += Self.dpopJKTField(proofing).map { ($0.name, $0.value) }
        fields += (requirement?.requestFields ?? []).map { ($0.name, $0.value) }
        let query = fields.map { FormEncoding.encode($0.0, spaceAsPlus: false) + "=" + FormEncoding.encode($0.1, spaceAsPlus: false) }
        components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + query).joined(separator: "&")
        guard let url = components.url else {
            throw SignInError.flowUnavailable.with(detail: "The authorization endpoint does not make a valid URL.")
        }
        return AuthorizationRequest(url: url, redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce,
                                    codeVerifier: verifier, proofing: proofing, dpopKey: dpopKey,
                                    requirement: requirement, createdAt: clock.now())
    }

    /// The loopback flow: listens, has the front end open the authorization URL, waits for the
    /// browser, completes the callback; proving `proofing`'s key when given.
    func signInWithBrowser(scopes: [String], redirectPort: UInt16 = 0, timeout: Duration, proofing: DPoPProofing? = nil,
                           requirement: AuthenticationRequirement? = nil,
                           open: @Sendable (URL) async throws -> Void) async throws(SignInError) -> (TokenReply, IDTokenClaims?) {
        if let proofing { try checkDPoPSupport(of: proofing) }
        let listener = try LoopbackListener(path: "/callback", port: redirectPort)
        defer { listener.close() }
        let request = try makeAuthorizationRequest(redirectURI: listener.redirectURI, scopes: scopes, proofing: proofing,
                                                   requirement: requirement)
        listener.expect(state: request.state)
        // Waiting starts before the browser opens, so a front end whose `open` returns only when
        // the browser is done still has its redirect taken; leaving early cancels the wait.
        async let callback = listener.waitForCallback(timeout: timeout)
        do {
            try await open(request.url)
        } catch is CancellationError {
            throw SignInError.cancelled
        } catch {
            throw SignInError.frontEndFailed.with(detail: "Opening the browser failed.", underlying: error)
        }
        let callbackURL: URL
        do {
            callbackURL = try await callback
        } catch let error as SignInError {
            throw error
        } catch {
            throw SignInError.cancelled
        }
        return try await completeAuthorization(callbackURL: callbackURL, request: request)
    }

    /// Checks the callback's `state`, reads its `error` or `code`, exchanges the code with the
    /// verifier (proving the request's DPoP key, when it has one) and checks the ID token.
    func completeAuthorization(callbackURL: URL, request: AuthorizationRequest) async throws(SignInError) -> (TokenReply, IDTokenClaims?) {
        // The query is form-encoded (RFC 6749 §4.1.2): `+` is a space, as in
        // `error_description=The+resource+owner+denied+the+request`.
        let items = URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? []
        func value(_ name: String) -> String? {
            items.first { $0.name == name }?.value.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? $0 }
        }
        // The state first: an answer that is not to this request is not believed, error or code.
        guard let state = value("state"), state == request.state else {
            throw SignInError.stateMismatch.with(detail: value("state") == nil
                ? "The callback has no `state`." : "The callback's `state` is not the request's.")
        }
        if let error = value("error") {
            // The server's words, cut short, without the request's secrets should it echo them.
            let description = value("error_description").map { text in
                ": " + String([request.state, request.codeVerifier, request.nonce].compactMap { $0 }
                    .reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }.prefix(200))
            } ?? "."
            if error == "access_denied" {
                throw SignInError.accessDenied.with(detail: "The authorization server answered access_denied\(description)")
            }
            throw SignInError.authorizationError(ServerErrorCode(rawValue: error))
                .with(detail: "The authorization server answered \(error)\(description)")
        }
        if let iss = value("iss"), Discovery.normalized(iss) != Discovery.normalized(metadata.issuer.absoluteString) {
            // RFC 9207: the answer comes from another server (a mix-up attack).
            throw SignInError.authorizationError(nil).with(detail: "The callback's `iss` names another issuer.")
        }
        guard let code = value("code"), !code.isEmpty else {
            throw SignInError.authorizationError(nil).with(detail: "The callback has neither a `code` nor an `error`.")
        }
        let fields = [(name: "grant_type", value: "authorization_code"), ("code", code),
                      ("redirect_uri", request.redirectURI.absoluteString), ("code_verifier", request.codeVerifier)]
        let reply = try await exchange(fields, secrets: [code, request.codeVerifier], proofing: request.proofing)
        return (reply, try idTokenClaims(of: reply, nonce: request.nonce, openIDRequested: request.scopes.contains("openid")))
    }

    /// POSTs `fields` to the token endpoint, with a proof of `proofing`'s key when given, and
    /// reads the tokens.
    func exchange(_ fields: [(name: String, value: String)], secrets: [String],
                  proofing: DPoPProofing? = nil) async throws(SignInError) -> TokenReply {
        let answer: (object: [String: JSONValue], serverDate: Date?)
        let sentAt = clock.now()
        do {
            answer = try await AuthorizationServerClient(provider: self, proofing: proofing)
                .postReadingDate(metadata.tokenEndpoint, fields, secrets: secrets)
        } catch {
            throw SignInError.from(error, endpoint: "token endpoint")
        }
        guard var reply = TokenReply(answer.object, serverDate: answer.serverDate, proved: proofing != nil) else {
            throw SignInError.invalidResponse.with(detail: "The token endpoint's answer cannot be used: "
                + (TokenReply.problem(in: answer.object, proved: proofing != nil) ?? "it is not a token reply") + ".")
        }
        reply.sentAt = sentAt
        return reply
    }

    /// The checked claims of the reply's ID token; `nil` when there is none and `openid` was not asked for.
    func idTokenClaims(of reply: TokenReply, nonce: String?, openIDRequested: Bool) throws(SignInError) -> IDTokenClaims? {
        guard let idToken = reply.idToken else {
            if openIDRequested {
                throw SignInError.idTokenInvalid(.format).with(detail: "The scopes include openid but the server sent no id_token.")
            }
            return nil
        }
        return try IDTokenValidator.claims(of: idToken, provider: self, nonce: nonce, serverDate: reply.serverDate)
    }
}
