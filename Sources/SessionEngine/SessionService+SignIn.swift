package import Foundation
import NetworkService
package import TokenStore

extension SessionService {
    /// Keeps a session obtained elsewhere: saves its credentials (replacing any other) and
    /// sends ``SessionEvent/signedIn(accountID:)``. Any sign-in flow can end here: a password
    /// grant, an authorization code exchanged elsewhere, a device flow, a token pasted into a
    /// CI secret.
    ///
    /// ```swift
    /// let tokens = try await oauth.passwordGrant(username: "kim", password: password, server: server)
    /// try await service.startSession(tokens: tokens, accountID: "kim")
    /// ```
    ///
    /// - Parameters:
    ///   - tokens: The session's tokens. Their expiry comes from ``Tokens/expiresIn``, else
    ///     ``Tokens/expiresAt``, else a JWT access token's `exp`, else is unknown.
    ///   - accountID: Whose session it is; `nil` reads the `sub` claim of a JWT access token.
    ///     Pass it whenever the server's tokens are opaque or name the user in another claim
    ///     (djangorestframework-simplejwt's `user_id`, say): the username the user signed in
    ///     with will do.
    /// - Returns: The account id the session was stored under.
    /// - Throws: ``SessionError`` (``SessionError/Kind/accountUnknown``, whose message says
    ///   what was missing: an opaque token, a JWT without `sub`, an empty id) when there is no
    ///   account id; nothing is stored then. ``/TokenStore/TokenStoreError`` when the store cannot save.
    @discardableResult
    public func startSession(tokens: Tokens, accountID: String? = nil) async throws -> String {
        try await startSession(tokens: tokens, accountID: accountID, requestedAt: nil)
    }

    /// ``startSession(tokens:accountID:)`` for tokens whose request was sent at `requestedAt`
    /// (by ``Configuration/now``): their lifetime is counted from then, as a refresh's is, so
    /// the time the answer took and what the sign-in did after it (checking an ID token, say)
    /// do not make the expiry here later than the server's. `nil`: from now.
    ///
    /// `dpopKey` is the DPoP key the sign-in proved with, saved with the tokens; without one, a
    /// DPoP-bound answer (`token_type` `DPoP`) is refused: its token is worthless without a key.
    @discardableResult
    package func startSession(tokens: Tokens, accountID: String?, requestedAt: Date?, dpopKey: DPoPKey? = nil) async throws -> String {
        if dpopKey == nil, Self.isDPoPBound(tokens) {
            throw SessionError(.dpopKeyUnusable, detail: "the tokens are DPoP-bound (token type DPoP) but no DPoP key "
                                   + "proved the sign-in: sign in through startSession(accountID:signingInWith:) with Configuration.dpop set")
        }
        let accountID = try Self.accountID(accountID, of: tokens)
        try Self.checkSigningInAgain(as: accountID, stored: nil)  // inside signInAgain(_:): the same account only
        let credentials = credentials(from: tokens, accountID: accountID, requestedAt: requestedAt, dpopKey: dpopKey)
        startNewGeneration()
        try await tokenStore.withExclusiveAccess { [tokenStore] in
            if Self.accountSigningInAgain != nil {
                try Self.checkSigningInAgain(as: accountID, stored: .some(try await tokenStore.load()?.accountID))
            }
            try await tokenStore.save(credentials)
        }
        // The store no longer holds the credentials of an ended session (if it did); these
        // are used even if they are the same tokens: the caller says they are good.
        state.withLock { $0.sessionStarted() }
        broadcaster.send(.signedIn(accountID: accountID))
        return accountID
    }

    /// `given`, else the `sub` claim of a JWT access token.
    /// - Throws: ``SessionError/Kind/accountUnknown`` saying what was missing.
    private static func accountID(_ given: String?, of tokens: Tokens) throws(SessionError) -> String {
        let pass = "pass `accountID:` (the username the user signed in with, say)"
        if let given {
            guard !given.isEmpty else { throw SessionError(.accountUnknown, detail: "the account id given is empty: \(pass)") }
            return given
        }
        guard let claims = UnverifiedJWT(tokens.accessToken.rawValue) else {
            throw SessionError(.accountUnknown, detail: "no account id was given and the access token is not a JWT, "
                + "so nothing names the account: \(pass)")
        }
        guard let subject = claims.subject, !subject.isEmpty else {
            let what = claims.subject == nil ? "without a `sub` claim" : "whose `sub` claim is empty"
            let names = claims.claimNames.isEmpty ? "none" : claims.claimNames.joined(separator: ", ")
            throw SessionError(.accountUnknown, detail: "no account id was given and the access token is a JWT \(what) "
                + "(its claims: \(names)): \(pass), or the claim that names the user")
        }
        return subject
    }

    /// Whether credentials are stored (a session restored from the store counts). Those of a
    /// session the server ended here, which the store could not remove yet
    /// (``SessionError/Kind/sessionEndedCredentialsNotRemoved``), do not count.
    /// Throws ``/TokenStore/TokenStoreError`` when the store cannot be read.
    public func isSignedIn() async throws -> Bool {
        try await liveStoredCredentials() != nil
    }

    /// The id of the account whose credentials are stored, if any;
    /// `nil` for credentials of a session the server ended here that the store could not
    /// remove yet.
    public func signedInAccountID() async throws -> String? {
        try await liveStoredCredentials()?.accountID
    }

    /// The stored credentials, unless they are those of a session that ended here.
    private func liveStoredCredentials() async throws -> Credentials? {
        guard let stored = try await tokenStore.load(), endedSession(of: stored) == nil else { return nil }
        return stored
    }
}

