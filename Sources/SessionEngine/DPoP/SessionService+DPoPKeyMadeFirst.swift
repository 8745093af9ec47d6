package import Foundation
package import NetworkService
package import TokenStore

// Sign-ins that make their DPoP key before the engine sees their answer: the OAuth flows
// (OAuthSignIn), which learn the account only from the answer (an ID token, a userinfo call
// made with the key), and the callback flow, whose key the provider made with the
// authorization request, before any session existed. `startSession(accountID:signingInWith:)`
// fits neither; these make the key, hand out its proofs, and keep tokens and key in one write.

extension DPoPKeyKind {
    /// A new key of this kind and its signer.
    /// - Throws: ``SessionError/Kind/dpopKeyUnusable`` when the kind cannot make a key, or cannot
    ///   sign with the one it made; the kind's error is the `underlying`.
    package func makeKeyAndSigner() throws(SessionError) -> (key: DPoPKey, signer: any DPoPSigner) {
        do {
            let key = try make()
            let signer = try signer(for: key)
            guard signer.algorithm == key.algorithm, signer.publicKey == key.publicKey else {
                throw DPoPKeyError("the kind made a signer of another key than the one it made")
            }
            return (key, signer)
        } catch {
            throw SessionError(.dpopKeyUnusable, underlying: error,
                               detail: "a new \(Redaction.printable(String(algorithm.prefix(16)))) DPoP key could not be made")
        }
    }
}

extension SessionService {
    /// A new DPoP key of `kind` and the proofs of it a sign-in sends: with the process's nonces,
    /// dated on the server's clock (as the session's own requests are).
    /// - Throws: ``SessionError/Kind/dpopKeyUnusable`` when no key could be made.
    package func makeDPoPKey(of kind: DPoPKeyKind) throws(SessionError) -> (key: DPoPKey, proofing: DPoPProofing) {
        let (key, signer) = try kind.makeKeyAndSigner()
        return (key, proofing(signing: signer))
    }

    /// Keeps the tokens of a sign-in whose token request proved `key` (signed by `signer`):
    /// applies ``DPoPConfiguration/bearerAnswer`` to a bearer answer, then saves tokens and key in
    /// one write, as ``startSession(tokens:accountID:)`` does, and keeps the key's proving servers
    /// for the session's first calls.
    /// - Throws: ``SessionError/Kind/dpopNotHonoured`` for a bearer answer under
    ///   ``DPoPConfiguration/BearerAnswer/refuse`` (nothing is stored);
    ///   ``SessionError/Kind/dpopKeyUnusable`` when `signer` is not `key`'s; those of
    ///   ``startSession(tokens:accountID:)``.
    @discardableResult
    package func startSession(tokens: Tokens, accountID: String?, requestedAt: Date?, provedWith key: DPoPKey,
                              signer: any DPoPSigner) async throws -> String {
        guard signer.algorithm == key.algorithm, signer.publicKey == key.publicKey else {
            throw SessionError(.dpopKeyUnusable, detail: "the sign-in's DPoP signer is not the key it is to store")
        }
        if !Self.isDPoPBound(tokens), bearerAnswer == .refuse {
            throw SessionError(.dpopNotHonoured, detail: "the server answered the sign-in's DPoP proof with a "
                                   + "bearer token; nothing was stored (Configuration.dpop.bearerAnswer is .refuse)")
        }
        let servers = ProvingServers(key: key, server: server, proofing: proofing(signing: signer))
        let accountID = try await startSession(tokens: tokens, accountID: accountID, requestedAt: requestedAt, dpopKey: key)
        proving.withLock { $0 = servers }
        return accountID
    }

    /// The kind of key a sign-in makes: ``Configuration/dpop``'s, else `fallback` (an OAuth
    /// provider's), else none (a bearer sign-in).
    package func dpopKeyKindForSignIn(fallback: DPoPKeyKind?) -> DPoPKeyKind? {
        configuration.dpop?.keys ?? fallback
    }

    /// Whether ``Configuration/dpop`` asks sign-ins to bind sessions to a key.
    package var bindsSignInsToDPoPKeys: Bool { configuration.dpop != nil }
}
