import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `--dpop-nonce required` (RFC 9449 §8, §9): challenges at the token routes (400) and at
/// resources (401), each answered with a fresh `DPoP-Nonce`, and never at the cost of a
/// refresh token.
@Suite("DPoP nonces at the reference server")
struct DPoPNonceTests {
    @Test("a sign-up without a nonce gets 400 use_dpop_nonce with DPoP-Nonce and writes nothing; the retry with the nonce is bound")
    func nonceChallengeAtTheTokenRoute() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required, nonces: true)) { api in
            let key = DPoPTestKey()
            let challenge = try await api.signUp("jo@example.com", key: key)
            #expect(challenge.status == .badRequest)
            #expect(challenge.errorCode == "use_dpop_nonce")
            let nonce = try #require(challenge.dpopNonce)
            #expect(challenge.challenge == nil, "a token route answers with the error body, not a challenge")

            let retry = try await api.signUp("jo@example.com", key: key, nonce: nonce)
            #expect(retry.status == .created, "the challenged sign-up created nothing: \(retry.text)")
            #expect(retry.dpopNonce != nil, "every answer to a proof carries the nonce")
            #expect(try retry.decode(AuthSessionDTO.self).tokens.tokenType == "DPoP")
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.nonceChallenges == 1)
        }
    }

    @Test("after the nonce rotates, a resource answers 401 with a DPoP use_dpop_nonce challenge and a new nonce, and the retry with it succeeds")
    func nonceChallengeAtAResource() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required, nonces: true)) { api in
            let key = DPoPTestKey()
            let nonce = try #require(try await api.signUp("ka@example.com", key: key).dpopNonce)
            let tokens = try await api.boundSignUp("ka@example.com", key: key, nonce: nonce)
            #expect(try await api.me(tokens.accessToken, key: key, nonce: nonce).status == .ok)

            #expect(try await api.send(.post, "/v1/_test/dpop/rotate-nonce").status == .noContent)
            let stale = try await api.me(tokens.accessToken, key: key, nonce: nonce)
            #expect(stale.status == .unauthorized)
            #expect(stale.errorCode == "use_dpop_nonce")
            #expect(stale.challenge?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true, "\(stale.challenge ?? "")")
            let fresh = try #require(stale.dpopNonce)
            #expect(fresh != nonce)
            #expect(try await api.me(tokens.accessToken, key: key, nonce: fresh).status == .ok)
        }
    }

    @Test("a refresh challenged for its nonce consumes nothing: the retry with the new nonce is a first use, not reuse")
    func nonceChallengeAtRefreshConsumesNothing() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required, nonces: true, testMode: true)) { api in
            let key = DPoPTestKey()
            let nonce = try #require(try await api.signUp("li@example.com", key: key).dpopNonce)
            let tokens = try await api.boundSignUp("li@example.com", key: key, nonce: nonce)
            #expect(try await api.send(.post, "/v1/_test/dpop/rotate-nonce").status == .noContent)

            let challenged = try await api.refresh(tokens.refreshToken, key: key, nonce: nonce)
            #expect(challenged.status == .badRequest)
            #expect(challenged.errorCode == "use_dpop_nonce")
            let fresh = try #require(challenged.dpopNonce)
            let retried = try await api.refresh(tokens.refreshToken, key: key, nonce: fresh)
            #expect(retried.status == .ok)
            let next = try retried.decode(RefreshResultDTO.self).tokens
            // Had the challenge used the token, this second presentation would have made a
            // sibling; the first child is the only one, so it refreshes as the family's head.
            #expect(try await api.refresh(next.refreshToken, key: key, nonce: fresh).status == .ok)
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.refreshesByJKT[key.thumbprint] == 2)
            #expect(counters.nonceChallenges == 2)
            #expect(counters.errorCodes["refresh_token_reused"] == nil)
        }
    }

    @Test("a nonce stays good for the slot after its own and is stale two slots on; instances sharing the secret accept each other's nonces")
    func nonceLifetimeAndSharedSecret() async throws {
        let clock = TestClock()
        var configuration = TestServer.dpopConfiguration(.required, nonces: true)
        configuration.dpop.nonceLifetime = .seconds(60)
        let key = DPoPTestKey()
        let nonce = try await TestServer.run(configuration: configuration, clock: clock) { api in
            try #require(try await api.signUp("mo@example.com", key: key, at: clock.now).dpopNonce)
        }
        // A second instance with the same secret (and a database of its own).
        try await TestServer.run(configuration: configuration, clock: clock) { api throws in
            clock.advance(by: 60)
            #expect(try await api.signUp("mo@example.com", key: key, nonce: nonce, at: clock.now).status == .created)
            clock.advance(by: 60)
            #expect(try await api.signUp("mo2@example.com", key: key, nonce: nonce, at: clock.now).errorCode == "use_dpop_nonce")
        }
    }
}
