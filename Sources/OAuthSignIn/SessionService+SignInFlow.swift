public import SessionEngine

extension SessionService {
    /// Runs `flow` and keeps the session it ends with, through
    /// ``/SessionEngine/SessionService/startSession(tokens:accountID:)``: the account id is the ID
    /// token's `sub` when there is one; for a device sign-in with `openid` that got no ID token
    /// (RFC 8628 asks for none), the userinfo endpoint's `sub`; the client id for client
    /// credentials; else the access token's JWT `sub`.
    ///
    /// ```swift
    /// let provider = try await OAuthProvider.discover(issuer: issuer, clientID: "cli")
    /// let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
    /// let result = try await session.signIn(with: .browser(provider, scopes: ["openid"]) { url in
    ///     print("Opening \(url)")
    /// })
    /// ```
    ///
    /// Nothing is stored when the flow fails.
    ///
    /// - Throws: ``SignInError`` for the flow; ``/SessionEngine/SessionError`` (`accountUnknown`)
    ///   when nothing names the account; ``/TokenStore/TokenStoreError`` when the store cannot save.
    @discardableResult
    public func signIn(with flow: SignInFlow) async throws -> SignInResult {
        let reply: TokenReply
        let claims: IDTokenClaims?
        var accountID: String?
        switch flow.kind {
        case let .browser(provider, scopes, timeout, open):
            (reply, claims) = try await provider.signInWithBrowser(scopes: scopes, timeout: timeout, open: open)
        case let .device(provider, scopes, show):
            (reply, claims) = try await provider.signInWithDevice(scopes: scopes, show: show)
            if claims == nil, scopes.contains("openid"), provider.metadata.userinfoEndpoint != nil {
                accountID = try await provider.userInfo(accessToken: reply.tokens.accessToken)["sub"]?.string
            }
        case let .callback(callbackURL, request, provider):
            (reply, claims) = try await provider.completeAuthorization(callbackURL: callbackURL, request: request)
        case let .clientCredentials(provider, scopes):
            guard provider.hasClientSecret else {
                throw SignInError.flowUnavailable.with(detail: "Client credentials need a confidential client (a client secret).")
            }
            do {
                reply = try await provider.clientCredentialsGrant(scopes: scopes)
            } catch {
                throw SignInError.from(error, endpoint: "token endpoint")
            }
            claims = nil
            accountID = provider.clientID
        }
        let stored = try await startSession(tokens: reply.tokens, accountID: claims?.sub ?? accountID)
        return SignInResult(accountID: stored, idToken: claims, scope: reply.scope)
    }
}
