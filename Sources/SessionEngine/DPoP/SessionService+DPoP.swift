import Foundation
import NetworkService
import TokenStore

// A DPoP-bound session's requests (RFC 9449): a stored key is always signed for, whatever the
// configuration (a session another program made keeps proving); `Configuration.dpop` only
// decides whether a sign-in makes one. A bearer session's calls go through `server` as before.

extension SessionService {
    /// The server and access token of a call with `credentials`: for a session with a key, the
    /// proving server and, when the server issued a DPoP token, the token as `.dpop`.
    /// - Throws: ``SessionError/Kind/dpopKeyUnusable`` when no kind of key configured here can
    ///   sign with the stored key.
    func callServerAndToken(for credentials: Credentials) throws(SessionError) -> (Server, AccessToken) {
        guard let key = credentials.dpopKey else { return (server, credentials.accessToken) }
        let servers = try provingServers(for: key)
        guard credentials.accessTokenType == Self.dpopTokenType else { return (servers.calls, credentials.accessToken) }
        return (servers.calls, AccessToken(credentials.accessToken.rawValue, scheme: .dpop))
    }

    /// The server token requests for `credentials` go to (the refresh, the revocation): for a
    /// session with a key, one proving every request.
    /// - Throws: ``SessionError/Kind/dpopKeyUnusable`` as ``callServerAndToken(for:)``.
    func tokenRequestServer(for credentials: Credentials) throws(SessionError) -> Server {
        guard let key = credentials.dpopKey else { return server }
        return try provingServers(for: key).tokenRequests
    }

    /// The proving servers of `key`, made once per key (the signer once per process).
    func provingServers(for key: DPoPKey) throws(SessionError) -> ProvingServers {
        if let kept = proving.withLock({ $0 }), kept.key == key { return kept }
        let signer = try DPoPSignerCache.shared.signer(for: key, kinds: dpopKeyKinds)
        let servers = ProvingServers(key: key, server: server, proofing: proofing(signing: signer))
        proving.withLock { $0 = servers }
        return servers
    }

    /// Proofs signed by `signer`, with the process's nonces, dated on the server's clock (this
    /// device's plus the offset measured from token responses).
    func proofing(signing signer: any DPoPSigner) -> DPoPProofing {
        DPoPProofing(signer: signer, nonces: .shared) { [state, now = configuration.now] in
            now().addingTimeInterval(ClockSkew.applied(state.withLock { $0.clockOffset }))
        }
    }

    /// The kinds a stored key may be of: the configured ones first, then the SDK's own.
    var dpopKeyKinds: [DPoPKeyKind] {
        (configuration.dpop.map { [$0.keys] + $0.alsoReads } ?? []) + DPoPKeyKind.builtIn
    }

    /// What to do with a bearer answer to a proof (``DPoPConfiguration/bearerAnswer``; refused
    /// when DPoP is not configured here).
    var bearerAnswer: DPoPConfiguration.BearerAnswer {
        configuration.dpop?.bearerAnswer ?? .refuse
    }

    /// `DPoP`: the token type of a DPoP-bound access token (RFC 9449 §5).
    static let dpopTokenType = "DPoP"

    /// Whether `tokens` are DPoP-bound (`token_type` `DPoP`, in any case).
    static func isDPoPBound(_ tokens: Tokens) -> Bool {
        TokenSyntax.isDPoP(tokens.tokenType)
    }

    /// How a refresh that a server refused for its DPoP proof fails, when it did: a nonce
    /// challenge the retry met again (never a failure of the refresh token: the request did not
    /// reach the token logic), or `invalid_dpop_proof` (transient: a clock that is off, or a
    /// proof a transport replayed, must not sign the user out). `nil` for any other error.
    static func proofFailure(_ error: any Error) -> RefreshFailure? {
        guard let error = error as? NetworkError, error.kind == .httpStatus else { return nil }
        if error.isDPoPNonceChallenge {
            return RefreshFailure(kind: .dpopNonce, statusCode: error.statusCode, delivery: .notDelivered)
        }
        if error.isDPoPProofFailure {
            return RefreshFailure(kind: .dpopProofRefused, statusCode: error.statusCode, delivery: .notRetryable)
        }
        return nil
    }
}
