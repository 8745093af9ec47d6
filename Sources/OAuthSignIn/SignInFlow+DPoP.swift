import NetworkService
import SessionEngine
import TokenStore

// Which DPoP key (RFC 9449) a sign-in flow binds its session to, if any.

/// The key a sign-in binds its session to, and the proofs of it its requests carry.
struct DPoPSignInKey: Sendable {
    let key: DPoPKey
    let proofing: DPoPProofing
}

extension SignInFlow {
    /// The flow's provider.
    var provider: OAuthProvider {
        switch kind {
        case let .browser(provider, _, _, _, _), let .device(provider, _, _), let .clientCredentials(provider, _),
             let .callback(_, _, provider):
            return provider
        }
    }

    /// The key the flow binds `session`'s new session to: for a callback, the one its
    /// authorization request was made with; else a new one of the kind
    /// ``/SessionEngine/SessionService/Configuration/dpop`` names, or else the provider's
    /// ``OAuthProvider/dpop``; `nil` for a bearer sign-in.
    /// - Throws: ``SignInError/Kind/dpopKeyUnusable`` when no key could be made, or when the
    ///   session binds sign-ins to keys and the callback's request was made without one.
    func dpopKey(for session: SessionService) throws(SignInError) -> DPoPSignInKey? {
        if case let .callback(_, request, _) = kind {
            if let key = request.dpopKey, let proofing = request.proofing { return DPoPSignInKey(key: key, proofing: proofing) }
            guard !session.bindsSignInsToDPoPKeys else {
                throw SignInError.dpopKeyUnusable.with(detail: "The session binds sign-ins to a DPoP key (Configuration.dpop) "
                    + "but the authorization request was made without one: set OAuthProvider.dpop before "
                    + "calling authorizationRequest(redirectURI:scopes:).")
            }
            return nil
        }
        guard let kind = session.dpopKeyKindForSignIn(fallback: provider.dpop) else { return nil }
        do {
            let (key, proofing) = try session.makeDPoPKey(of: kind)
            return DPoPSignInKey(key: key, proofing: proofing)
        } catch {
            throw SignInError.dpopKeyUnusable.with(detail: "No DPoP key could be made for the sign-in.", underlying: error)
        }
    }
}
