import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The reference server with `--dpop allowed` or `required` (RFC 9449): sessions bound at
/// sign-in, access and refresh tokens that work only with their key, and the challenges.
@Suite("DPoP-bound sessions at the reference server")
struct DPoPBindingTests {
    @Test("a sign-up, a sign-in and an anonymous sign-in made with a proof are bound: tokenType DPoP and cnf.jkt is the key's thumbprint")
    func signInsWithAProofAreBound() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let key = DPoPTestKey()
            let signedUp = try await api.boundSignUp("ada@example.com", key: key)
            #expect(try accessTokenClaims(signedUp.accessToken).cnf?.jkt == key.thumbprint)

            let signIn = try await api.send(.post, "/v1/auth/sign-in", proof: key.proof(.post, "/v1/auth/sign-in"),
                                            json: #"{"email":"ada@example.com","password":"password-1"}"#)
            #expect(signIn.status == .ok)
            let signedIn = try signIn.decode(AuthSessionDTO.self).tokens
            #expect(signedIn.tokenType == "DPoP")
            #expect(try accessTokenClaims(signedIn.accessToken).cnf?.jkt == key.thumbprint)

            let anonymous = try await api.send(.post, "/v1/auth/anonymous", proof: key.proof(.post, "/v1/auth/anonymous"))
            #expect(anonymous.status == .created)
            let anonymousTokens = try anonymous.decode(AuthSessionDTO.self).tokens
            #expect(anonymousTokens.tokenType == "DPoP")
            #expect(try accessTokenClaims(anonymousTokens.accessToken).cnf?.jkt == key.thumbprint)
        }
    }

    @Test("under allowed, a sign-up without a proof is a bearer session as before: tokenType Bearer, no cnf, Bearer calls work")
    func allowedWithoutAProofIsBearer() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let session = try await api.signUp("bo@example.com")
            #expect(session.tokens.tokenType == "Bearer")
            #expect(try accessTokenClaims(session.tokens.accessToken).cnf == nil)
            #expect(try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken).status == .ok)
            let refreshed = try await api.refresh(session.tokens.refreshToken)
            #expect(refreshed.status == .ok)
            #expect(try refreshed.decode(RefreshResultDTO.self).tokens.tokenType == "Bearer")
            // The DPoP scheme with a token that is not bound is refused (RFC 9449 §7.2).
            let asDPoP = try await api.send(.get, "/v1/members/me", proof: DPoPTestKey().proof(.get, "/v1/members/me", accessToken: session.tokens.accessToken),
                                            token: session.tokens.accessToken)
            #expect(asDPoP.status == .unauthorized)
            #expect(asDPoP.errorCode == "invalid_token")
        }
    }

    @Test("a bound access token works with a proof by its key, and refreshes keep the binding")
    func boundCallsAndRefreshes() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let key = DPoPTestKey()
            let tokens = try await api.boundSignUp("cy@example.com", key: key)
            let me = try await api.me(tokens.accessToken, key: key)
            #expect(me.status == .ok, "\(me.text)")
            #expect(me.dpopNonce == nil, "nonces are off")

            let refreshed = try await api.refresh(tokens.refreshToken, key: key)
            #expect(refreshed.status == .ok)
            let next = try refreshed.decode(RefreshResultDTO.self).tokens
            #expect(next.tokenType == "DPoP")
            #expect(try accessTokenClaims(next.accessToken).cnf?.jkt == key.thumbprint)
            #expect(try await api.me(next.accessToken, key: key).status == .ok)
            // Sign-out is a bearer route too: it takes the DPoP scheme with a proof.
            let signOut = try await api.send(.post, "/v1/auth/sign-out",
                                             proof: key.proof(.post, "/v1/auth/sign-out", accessToken: next.accessToken),
                                             token: next.accessToken, json: #"{"refreshToken":"\#(next.refreshToken)"}"#)
            #expect(signOut.status == .noContent)
            #expect(try await api.me(next.accessToken, key: key).errorCode == "invalid_token")
        }
    }

    @Test("an access token copied without its key is refused: as Bearer, with the DPoP scheme and no proof, and with another key's proof")
    func copiedAccessTokenIsRefused() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let key = DPoPTestKey()
            let token = try await api.boundSignUp("di@example.com", key: key).accessToken

            let asBearer = try await api.send(.get, "/v1/members/me", token: token)
            #expect(asBearer.status == .unauthorized)
            #expect(asBearer.errorCode == "invalid_token")
            #expect(asBearer.challenge?.hasPrefix(#"Bearer error="invalid_token""#) == true, "\(asBearer.challenge ?? "")")
            #expect(asBearer.challenge?.hasSuffix(#"DPoP algs="ES256 EdDSA""#) == true, "\(asBearer.challenge ?? "")")

            let withoutProof = try await api.send(.get, "/v1/members/me", proof: nil, token: token)
            #expect(withoutProof.status == .unauthorized)
            #expect(withoutProof.errorCode == "invalid_dpop_proof")

            let thief = DPoPTestKey()
            let withAnotherKey = try await api.me(token, key: thief)
            #expect(withAnotherKey.status == .unauthorized)
            #expect(withAnotherKey.errorCode == "invalid_dpop_proof")
            #expect(withAnotherKey.challenge == #"Bearer, DPoP error="invalid_dpop_proof", error_description="The DPoP proof is not signed by the key this session is bound to.", algs="ES256 EdDSA""#)

            // The owner is unaffected.
            #expect(try await api.me(token, key: key).status == .ok)
        }
    }

    @Test("a refresh token copied without its key is refused with nothing written, before and after the owner used it; the owner's refreshes go on")
    func copiedRefreshTokenIsRefused() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let key = DPoPTestKey()
            let tokens = try await api.boundSignUp("ed@example.com", key: key)
            let thief = DPoPTestKey()

            for attempt in [try await api.refresh(tokens.refreshToken, key: nil), try await api.refresh(tokens.refreshToken, key: thief)] {
                #expect(attempt.status == .unauthorized)
                #expect(attempt.errorCode == "invalid_dpop_proof")
            }
            // Nothing was used: the owner's refresh is a first use, not a retry or reuse.
            let owners = try await api.refresh(tokens.refreshToken, key: key)
            #expect(owners.status == .ok)
            let next = try owners.decode(RefreshResultDTO.self).tokens

            // The used token presented by the thief is not reuse: it revokes nothing.
            let late = try await api.refresh(tokens.refreshToken, key: thief)
            #expect(late.errorCode == "invalid_dpop_proof")
            #expect(try await api.me(next.accessToken, key: key).status == .ok)
            let again = try await api.refresh(next.refreshToken, key: key)
            #expect(again.status == .ok)
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.refreshesByJKT == [key.thumbprint: 2])
            #expect(counters.errorCodes["refresh_token_reused"] == nil)
        }
    }

    @Test("a replayed proof is refused, at a resource and at the token route")
    func replayedProofIsRefused() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.allowed)) { api in
            let key = DPoPTestKey()
            let tokens = try await api.boundSignUp("fi@example.com", key: key)
            let proof = key.proof(.get, "/v1/members/me", accessToken: tokens.accessToken)
            #expect(try await api.send(.get, "/v1/members/me", proof: proof, token: tokens.accessToken).status == .ok)
            let replay = try await api.send(.get, "/v1/members/me", proof: proof, token: tokens.accessToken)
            #expect(replay.status == .unauthorized)
            #expect(replay.errorCode == "invalid_dpop_proof")
            #expect(replay.errorMessage == "This DPoP proof was already used.")

            let refreshProof = key.proof(.post, "/v1/auth/refresh")
            let body = #"{"refreshToken":"\#(tokens.refreshToken)"}"#
            #expect(try await api.send(.post, "/v1/auth/refresh", proof: refreshProof, json: body).status == .ok)
            let replayedRefresh = try await api.send(.post, "/v1/auth/refresh", proof: refreshProof, json: body)
            #expect(replayedRefresh.status == .badRequest)
            #expect(replayedRefresh.errorCode == "invalid_dpop_proof")
        }
    }

    @Test("under required, sign-ins and refreshes need a proof (400), resources refuse Bearer and challenge with DPoP only")
    func requiredMode() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required)) { api in
            let withoutProof = try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"gil@example.com","password":"password-1","nickname":"nick"}"#)
            #expect(withoutProof.status == .badRequest)
            #expect(withoutProof.errorCode == "invalid_dpop_proof")
            let anonymous = try await api.send(.post, "/v1/auth/anonymous")
            #expect(anonymous.status == .badRequest)
            #expect(anonymous.errorCode == "invalid_dpop_proof")
            // The refused sign-up wrote nothing: the same email signs up with a proof.
            let key = DPoPTestKey()
            let tokens = try await api.boundSignUp("gil@example.com", key: key)

            let noToken = try await api.send(.get, "/v1/members/me")
            #expect(noToken.status == .unauthorized)
            #expect(noToken.challenge == #"DPoP algs="ES256 EdDSA""#)
            let asBearer = try await api.send(.get, "/v1/members/me", token: tokens.accessToken)
            #expect(asBearer.status == .unauthorized)
            #expect(asBearer.challenge?.hasPrefix(#"DPoP error="invalid_token""#) == true)
            #expect(try await api.me(tokens.accessToken, key: key).status == .ok)
            let refreshWithoutProof = try await api.refresh(tokens.refreshToken)
            #expect(refreshWithoutProof.status == .badRequest)
            #expect(refreshWithoutProof.errorCode == "invalid_dpop_proof")
            #expect(try await api.refresh(tokens.refreshToken, key: key).status == .ok)
        }
    }

    @Test("--dpop-algs EdDSA refuses an ES256 proof and names only EdDSA in challenges")
    func algorithmAllowList() async throws {
        var configuration = TestServer.dpopConfiguration(.required)
        configuration.dpop.algorithms = ["EdDSA"]
        try await TestServer.run(configuration: configuration) { api in
            let refused = try await api.signUp("hu@example.com", key: DPoPTestKey())
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "invalid_dpop_proof")
            #expect(try await api.send(.get, "/v1/members/me").challenge == #"DPoP algs="EdDSA""#)
        }
    }

    @Test("with DPoP off, DPoP fields are ignored: a sign-up with a proof is bearer, the DPoP scheme is refused as before, no DPoP-Nonce")
    func offModeIgnoresDPoP() async throws {
        try await TestServer.run(configuration: TestServer.configuration(testMode: true)) { api in
            let key = DPoPTestKey()
            let response = try await api.signUp("io@example.com", key: key)
            #expect(response.status == .created)
            let tokens = try response.decode(AuthSessionDTO.self).tokens
            #expect(tokens.tokenType == "Bearer")
            #expect(try accessTokenClaims(tokens.accessToken).cnf == nil)
            #expect(response.dpopNonce == nil)
            let asDPoP = try await api.me(tokens.accessToken, key: key)
            #expect(asDPoP.status == .unauthorized)
            #expect(asDPoP.errorMessage == "The Authorization header must be 'Bearer <token>'.")
            #expect(try await api.send(.get, "/v1/members/me").challenge == "Bearer")
            #expect(try await api.send(.post, "/v1/_test/dpop/rotate-nonce").status == .notFound)
        }
    }
}
