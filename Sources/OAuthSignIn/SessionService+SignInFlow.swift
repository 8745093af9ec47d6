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
    /// **DPoP.** With ``/SessionEngine/SessionService/Configuration/dpop`` set (as
    /// ``SessionEngine/SessionService/Configuration/oauth2(_:)`` sets it from
    /// ``OAuthProvider/dpop``), or the flow's provider's ``OAuthProvider/dpop``, the sign-in makes
    /// a new key (a callback flow uses the one its ``AuthorizationRequest`` was made with), names
    /// it in `dpop_jkt`, proves it on every token request (and on the device flow's userinfo
    /// call), and saves it with the tokens in one write: every later refresh and call proves it.
    /// A bearer answer is refused unless ``/SessionEngine/DPoPConfiguration/bearerAnswer`` is
    /// `.accept`.
    ///
    /// - Throws: ``SignInError`` for the flow (``SignInError/Kind/dpopAlgorithmUnsupported``,
    ///   ``SignInError/Kind/dpopKeyUnusable`` for DPoP); ``/SessionEngine/SessionError``
    ///   (`accountUnknown`) when nothing names the account, (`dpopNotHonoured`) when the server
    ///   answered a proof with a bearer token that the configuration refuses;
    ///   ``/TokenStore/TokenStoreError`` when the store cannot save.
    @discardableResult
    public func signIn(with flow: SignInFlow) async throws -> SignInResult {
        let binding = try flow.dpopKey(for: self)
        let outcome = try await flow.run(proofing: binding?.proofing)
        let (reply, claims, clock) = (outcome.reply, outcome.claims, outcome.clock)
        // The lifetime counts from when the token request was sent, on the session's clock:
        // the answer's way back and the checks since (an ID token, a userinfo call) are not
        // added to it.
        let requestedAt = reply.sentAt.map { sentAt in
            configuration.now().addingTimeInterval(-max(0, clock.now().timeIntervalSince(sentAt)))
        }
        let accountID = claims?.sub ?? outcome.accountID
        let stored: String
        if let binding {
            stored = try await startSession(tokens: reply.tokens, accountID: accountID, requestedAt: requestedAt,
                                            provedWith: binding.key, signer: binding.proofing.signer)
        } else {
            stored = try await startSession(tokens: reply.tokens, accountID: accountID, requestedAt: requestedAt)
        }
        return SignInResult(accountID: stored, idToken: claims, scope: reply.scope)
    }

    /// Signs the account signed in now in again through `flow`, usually at the level a
    /// resource asked for (``SignInFlow/requiring(_:)`` with a
    /// ``/SessionEngine/SessionError/Kind/stepUpRequired`` error's
    /// ``/SessionEngine/SessionError/authenticationRequirement``), and keeps the new tokens in
    /// place of the old only when the sign-in is of the same account
    /// (``/SessionEngine/SessionService/signInAgain(_:)``). A DPoP-bound sign-in binds them to a
    /// new key, as every sign-in does.
    ///
    /// ```swift
    /// do {
    ///     try await session.request { try await PaymentsAPI.pay(order, server: $0, accessToken: $1) }
    /// } catch let error as SessionError where error.kind == .stepUpRequired {
    ///     let requirement = error.authenticationRequirement ?? AuthenticationRequirement()
    ///     try await session.signInAgain(with: .browser(provider, scopes: ["openid"], open: open).requiring(requirement))
    ///     try await session.request { try await PaymentsAPI.pay(order, server: $0, accessToken: $1) }
    /// }
    /// ```
    ///
    /// - Throws: What ``signIn(with:)`` throws (``SignInError/Kind/authenticationRequirementNotMet``
    ///   when the ID token does not show the level asked for); ``/SessionEngine/SessionError``
    ///   ``/SessionEngine/SessionError/Kind/notSignedIn`` when no session is stored,
    ///   ``/SessionEngine/SessionError/Kind/accountMismatch`` when the sign-in was of another
    ///   account: nothing is stored then, and the session signed in is kept.
    @discardableResult
    public func signInAgain(with flow: SignInFlow) async throws -> SignInResult {
        try await signInAgain { try await signIn(with: flow) }
    }

    /// Runs `flow` unless the store holds a session, inside one exclusive section of the
    /// store: programs that share the store and start together sign in once between them
    /// (the others find the first one's session when their turn comes). Made for
    /// ``SignInFlow/clientCredentials(_:scopes:)``, where nobody waits on a person:
    ///
    /// ```swift
    /// try await session.signInIfNeeded(with: .clientCredentials(provider, scopes: ["read"]))
    /// ```
    ///
    /// With an interactive flow, every program sharing the store waits for the person to
    /// finish before it can refresh; check ``/SessionEngine/SessionService/isSignedIn()`` and
    /// call ``signIn(with:)`` instead.
    ///
    /// - Returns: What ``signIn(with:)`` returns, or `nil` when a session was stored already
    ///   (it is kept, whichever account it belongs to, and no request is sent).
    /// - Throws: What ``signIn(with:)`` throws, ``/TokenStore/TokenStoreError`` when the store
    ///   cannot be read or locked, and `CancellationError` when cancelled while waiting for it.
    @discardableResult
    public func signInIfNeeded(with flow: SignInFlow) async throws -> SignInResult? {
        // Nested exclusive sections of the same task tree run directly, so signIn(with:)'s
        // own save does not wait for this one.
        try await tokenStore.withExclusiveAccess { [self] in
            guard try await !isSignedIn() else { return nil }
            return try await signIn(with: flow)
        }
    }
}
