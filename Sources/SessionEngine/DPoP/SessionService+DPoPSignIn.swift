import Foundation
public import NetworkService
import TokenStore

extension SessionService {
    /// Signs in through `signIn`, binding the session to a new DPoP key (RFC 9449) when
    /// ``Configuration/dpop`` is set: the key is made (of kind ``DPoPConfiguration/keys``),
    /// `signIn` gets a server that sends a proof with every request, and the tokens are saved
    /// with the key, in one write; then ``SessionEvent/signedIn(accountID:)`` is sent.
    ///
    /// ```swift
    /// try await service.startSession(accountID: "kim") { server in
    ///     try await oauth.passwordGrant(username: "kim", password: password, server: server)
    /// }
    /// ```
    ///
    /// Without ``Configuration/dpop`` it is an ordinary sign-in: `signIn` gets ``server`` and the
    /// tokens are kept as ``startSession(tokens:accountID:)`` keeps them.
    ///
    /// - Parameters:
    ///   - accountID: Whose session it is; `nil` reads the `sub` claim of a JWT access token
    ///     (as ``startSession(tokens:accountID:)``).
    ///   - signIn: The sign-in request: it sends through the server it is given and returns the
    ///     tokens.
    /// - Returns: The account id the session was stored under.
    /// - Throws: whatever `signIn` throws; ``SessionError`` of kind
    ///   ``SessionError/Kind/dpopNotHonoured`` when the server answered the proof with a bearer
    ///   token and ``DPoPConfiguration/bearerAnswer`` is ``DPoPConfiguration/BearerAnswer/refuse``,
    ///   ``SessionError/Kind/dpopKeyUnusable`` when no key could be made, and those of
    ///   ``startSession(tokens:accountID:)``. Nothing is stored when it throws.
    @discardableResult
    public func startSession(accountID: String? = nil, signingInWith signIn: (Server) async throws -> Tokens) async throws -> String {
        try await startSession { server in (try await signIn(server), accountID, ()) }.accountID
    }

    /// ``startSession(accountID:signingInWith:)`` for a sign-in whose answer names the account
    /// (the app's sign-in routes return the member with the tokens): `signIn` returns the
    /// tokens, the account id (`nil`: the `sub` claim of a JWT access token) and what else the
    /// caller wants back from the answer:
    ///
    /// ```swift
    /// let (_, member) = try await service.startSession { server in
    ///     let answer = try await AuthAPI.signIn(email: email, password: password, server: server)
    ///     guard answer.member.role == .admin else { throw NotAnAdmin() }   // nothing is stored
    ///     return (answer.tokens, answer.member.id.uuidString, answer.member)
    /// }
    /// ```
    /// - Parameter signIn: The sign-in request, sent through the server it is given.
    /// - Returns: The account id the session was stored under, and `signIn`'s `answer`.
    /// - Throws: as ``startSession(accountID:signingInWith:)``. Nothing is stored when it throws.
    public func startSession<Answer>(
        signingInWith signIn: (Server) async throws -> (tokens: Tokens, accountID: String?, answer: Answer)
    ) async throws -> (accountID: String, answer: Answer) {
        guard let dpop = configuration.dpop else {
            let requestedAt = configuration.now()
            let (tokens, accountID, answer) = try await signIn(server)
            return (try await startSession(tokens: tokens, accountID: accountID, requestedAt: requestedAt), answer)
        }
        let key: DPoPKey
        let signer: any DPoPSigner
        do {
            key = try dpop.keys.make()
            signer = try dpop.keys.signer(for: key)
        } catch {
            throw SessionError(.dpopKeyUnusable, underlying: error,
                               detail: "a new \(Redaction.printable(String(dpop.keys.algorithm.prefix(16)))) DPoP key could not be made")
        }
        let servers = ProvingServers(key: key, server: server, proofing: proofing(signing: signer))
        let requestedAt = configuration.now()
        let (tokens, accountID, answer) = try await signIn(servers.tokenRequests)
        if !Self.isDPoPBound(tokens), dpop.bearerAnswer == .refuse {
            throw SessionError(.dpopNotHonoured, detail: "the server answered the sign-in's DPoP proof with a "
                                   + "bearer token; nothing was stored (Configuration.dpop.bearerAnswer is .refuse)")
        }
        let storedAs = try await startSession(tokens: tokens, accountID: accountID, requestedAt: requestedAt, dpopKey: key)
        proving.withLock { $0 = servers }
        return (storedAs, answer)
    }
}
