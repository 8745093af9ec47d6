import AppSDKHarness
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine
import Testing
import TokenStore

@Suite("A nonce challenge at the token endpoint or userinfo is answered by exactly one retry (RFC 9449 §8, §9)")
struct DPoPNonceChallengeTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    static func proof(_ request: FakeTokenServer.Request) -> ReceivedDPoPProof? {
        request.header("DPoP").flatMap(ReceivedDPoPProof.init)
    }

    @Test("token endpoint: 400 use_dpop_nonce → 2 requests, the same body bytes, a new jti and the nonce; the code is used once")
    func tokenEndpoint() async throws {
        let server = try FakeAS()
        server.configure { $0.requiresNonce = true }
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let request = try provider.makeAuthorizationRequest(redirectURI: URL(string: "http://127.0.0.1:53682/callback")!,
                                                            scopes: ["profile"], proofing: proofing)
        let (reply, _) = try await provider.completeAuthorization(callbackURL: server.approve(request.url), request: request)
        let attempts = server.requests(to: "/token")
        try #require(attempts.count == 2)
        #expect(attempts[0].body == attempts[1].body)
        #expect(attempts[0].header("Content-Type") == attempts[1].header("Content-Type"))
        let proofs = attempts.map(Self.proof)
        #expect(proofs.map { $0?.nonce } == [nil, FakeAS.Routes.nonce(1)])
        #expect(proofs[0]?.jti != nil && proofs[0]?.jti != proofs[1]?.jti)
        #expect(proofs.allSatisfy { $0?.ath == nil && $0?.htu == server.tokenEndpoint })
        #expect(reply.tokenType == .dpop)
    }

    @Test("the nonce a 200 carried goes in the next proof to that origin: the next request is not challenged")
    func nonceFromSuccess() async throws {
        let server = try FakeAS()
        server.configure { $0.requiresNonce = true }
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        _ = try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
        _ = try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
        let attempts = server.requests(to: "/token")
        #expect(attempts.count == 3)   // challenge, retry (its 200 names nonce 2), then the second grant at once
        #expect(attempts.map { Self.proof($0)?.nonce } == [nil, FakeAS.Routes.nonce(1), FakeAS.Routes.nonce(2)])
        #expect(proofing.nonces.nonce(forOrigin: RedirectPolicy.origin(of: server.issuer)) == server.currentNonce)
    }

    @Test("userinfo: 401 with WWW-Authenticate DPoP use_dpop_nonce → 2 requests, ath = base64url(SHA-256(token)) in both, a new jti")
    func userinfo() async throws {
        let server = try FakeAS()
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        let reply = try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
        server.configure { $0.requiresNonce = true }
        let claims = try await provider.userInfo(accessToken: reply.accessToken, subject: nil, proofing: proofing)
        #expect(claims["sub"]?.string == "user-42")
        let attempts = server.requests(to: "/userinfo")
        try #require(attempts.count == 2)
        let token = reply.tokens.accessToken.rawValue
        #expect(attempts.allSatisfy { $0.header("Authorization") == "DPoP " + token })
        let proofs = attempts.map(Self.proof)
        let ath = Base64URL.encode(SHA256.hash(Array(token.utf8)))
        #expect(proofs.map { $0?.ath } == [ath, ath])
        #expect(proofs.map { $0?.htm } == ["GET", "GET"])
        #expect(proofs.map { $0?.htu } == [server.userinfoEndpoint, server.userinfoEndpoint])
        #expect(proofs.map { $0?.nonce } == [nil, server.currentNonce])
        #expect(proofs[0]?.jti != proofs[1]?.jti)
    }

    @Test("a bearer token goes to userinfo as Bearer without a proof, even from a client that could prove")
    func bearerUserinfo() async throws {
        let server = try FakeAS()
        let provider = try await server.confidentialProvider()
        let reply = try await provider.clientCredentialsGrant(scopes: [])
        #expect(reply.tokenType == .bearer)
        _ = try await provider.userInfo(accessToken: reply.accessToken, subject: nil, proofing: try FakeAS.proofing())
        let attempt = try #require(server.requests(to: "/userinfo").first)
        #expect(attempt.header("Authorization")?.hasPrefix("Bearer ") == true)
        #expect(attempt.header("DPoP") == nil)
    }

    @Test("a DPoP-bound token without a key to prove with is refused before anything is sent")
    func boundTokenWithoutKey() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let before = server.requests.count
        let error = await #expect(throws: SignInError.self) {
            try await provider.userInfo(accessToken: AccessToken("bound", scheme: .dpop))
        }
        #expect((error?.underlying as? NetworkError)?.kind == .invalidRequest)
        #expect(server.requests.count == before)
    }

    @Test("a second challenge is not answered: exactly 2 requests, and the error says isDPoPNonceChallenge",
          arguments: ["/token", "/userinfo"])
    func repeatedChallenges(path: String) async throws {
        let server = try FakeAS()
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        let reply = try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
        server.configure { $0.challengesEveryProof = true }
        let before = server.requests(to: path).count
        let failure: NetworkError?
        if path == "/token" {
            failure = await #expect(throws: NetworkError.self) {
                try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
            }
        } else {
            let error = await #expect(throws: SignInError.self) {
                try await provider.userInfo(accessToken: reply.accessToken, subject: nil, proofing: proofing)
            }
            failure = error?.underlying as? NetworkError
        }
        #expect(server.requests(to: path).count - before == 2)
        #expect(failure?.isDPoPNonceChallenge == true)
    }

    @Test("invalid_dpop_proof is read by its code whatever the status (glewlwyd answers 403)")
    func invalidProofBy403() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let other = try FakeAS.proofing()
        let refreshToken = server.issueRefreshToken(boundTo: other.signer.publicKey.thumbprint)
        let credentials = Credentials(accessToken: AccessToken("old"), refreshToken: refreshToken, accessTokenExpiresAt: nil,
                                      accountID: "user-42")
        let error = await #expect(throws: NetworkError.self) {
            try await provider.refresh(credentials, proofing: proofing)
        }
        #expect(error?.statusCode == 403)
        #expect(error?.serverErrorCode == .invalidDPoPProof)
        #expect(error?.isDPoPNonceChallenge == false)
        #expect(server.requests(to: "/token").count == 1)
    }
}
