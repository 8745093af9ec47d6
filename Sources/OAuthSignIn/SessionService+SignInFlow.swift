public import SessionEngine

extension SessionService {
    /// Runs `flow` and keeps the session it ends with, through
    /// ``/SessionEngine/SessionService/startSession(tokens:accountID:)``: the account id is the ID
    /// token's `sub` when there is one, the client id for client credentials, else the access
    /// token's JWT `sub`.
    ///
    /// ```swift
    /// let provider = try await OAuthProvider.discover(issuer: issuer, clientID: "cli")
    /// let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
    /// let result = try await session.signIn(with: .browser(provider, scopes: ["openid"]) { url in
    ///     print("Opening \(url)")
    /// })
    /// ```
    ///
    /// - Throws: ``SignInError`` for the flow; ``/SessionEngine/SessionError`` (`accountUnknown`)
    ///   when nothing names the account; ``/TokenStore/TokenStoreError`` when the store cannot save.
    @discardableResult
    public func signIn(with flow: SignInFlow) async throws -> SignInResult {
        fatalError("not implemented yet")
    }
}
