import Foundation
import NetworkService
import SessionEngine

/// What a sign-in flow ended with, before a session keeps it: the token reply, the checked ID
/// token's claims, the account id when the flow knows it otherwise (the userinfo `sub` of a
/// device sign-in without an ID token, the client id of client credentials), and the clock
/// the flow ran by.
struct SignInOutcome: Sendable {
    let reply: TokenReply
    let claims: IDTokenClaims?
    let accountID: String?
    let clock: SignInClock
}

extension SignInFlow {
    /// Runs the flow; with `proofing`, every token request proves its key (RFC 9449), the
    /// authorization or device authorization request names it (`dpop_jkt`), and the server
    /// must list its algorithm, else the flow fails before sending anything. A callback flow
    /// proves the key its ``AuthorizationRequest`` was made with, whatever `proofing` is.
    func run(proofing: DPoPProofing? = nil) async throws -> SignInOutcome {
        let startedAt = provider.clock.now()
        let outcome = try await runFlow(proofing: proofing)
        // A step-up: the ID token must show the level asked for (SignInFlow.requiring(_:)).
        var requirement = self.requirement
        var began = startedAt
        if case let .callback(_, request, _) = kind {
            requirement = requirement ?? request.requirement
            began = request.createdAt
        }
        if let requirement {
            try requirement.check(outcome.claims, startedAt: began, now: provider.clock.now(),
                                  serverDate: outcome.reply.serverDate, skew: provider.clockSkew)
        }
        return outcome
    }

    /// ``run(proofing:)`` before the requirement's check.
    private func runFlow(proofing: DPoPProofing?) async throws -> SignInOutcome {
        switch kind {
        case let .browser(provider, scopes, redirectPort, timeout, open):
            let (reply, claims) = try await provider.signInWithBrowser(scopes: scopes, redirectPort: redirectPort ?? 0,
                                                                       timeout: timeout, proofing: proofing,
                                                                       requirement: requirement, open: open)
            return SignInOutcome(reply: reply, claims: claims, accountID: nil, clock: provider.clock)
        case let .device(provider, scopes, show):
            let (reply, claims) = try await provider.signInWithDevice(scopes: scopes, proofing: proofing,
                                                                      requirement: requirement, show: show)
            var accountID: String?
            if claims == nil, scopes.contains("openid"), provider.metadata.userinfoEndpoint != nil {
                accountID = try await provider.userInfo(accessToken: reply.accessToken, subject: nil, proofing: proofing)["sub"]?.string
            }
            return SignInOutcome(reply: reply, claims: claims, accountID: accountID, clock: provider.clock)
        case let .callback(callbackURL, request, provider):
            let (reply, claims) = try await provider.completeAuthorization(callbackURL: callbackURL, request: request)
            return SignInOutcome(reply: reply, claims: claims, accountID: nil, clock: provider.clock)
        case let .clientCredentials(provider, scopes):
            guard requirement == nil else {
                throw SignInError.flowUnavailable.with(detail: "Client credentials have no user to authenticate at the level asked for.")
            }
            guard provider.hasClientSecret else {
                throw SignInError.flowUnavailable.with(detail: "Client credentials need a confidential client (a client secret).")
            }
            if let proofing { try provider.checkDPoPSupport(of: proofing) }
            let reply: TokenReply
            do {
                reply = try await provider.clientCredentialsGrant(scopes: scopes, proofing: proofing)
            } catch {
                throw SignInError.from(error, endpoint: "token endpoint")
            }
            return SignInOutcome(reply: reply, claims: nil, accountID: provider.clientID, clock: provider.clock)
        }
    }
}
