import AppSDKHarness
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine
import Testing
import TokenStore

@Suite("Every token request of a DPoP sign-in or refresh carries a proof, checked field by field (RFC 9449 §4.2, §5)")
struct DPoPTokenRequestProofTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    /// The checks a server makes of a token request's proof, and that it has no `ath`.
    static func expectTokenRequestProof(_ request: FakeTokenServer.Request, of proofing: DPoPProofing, htu: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws -> ReceivedDPoPProof {
        let proof = try #require(request.header("DPoP").flatMap(ReceivedDPoPProof.init), sourceLocation: sourceLocation)
        #expect(proof.typ == "dpop+jwt", sourceLocation: sourceLocation)
        #expect(proof.alg == "EdDSA", sourceLocation: sourceLocation)
        #expect(proof.thumbprint == proofing.signer.publicKey.thumbprint, sourceLocation: sourceLocation)
        #expect(proof.signatureVerifies, sourceLocation: sourceLocation)
        #expect(!proof.jwkHasPrivatePart, sourceLocation: sourceLocation)
        #expect(proof.htm == "POST", sourceLocation: sourceLocation)
        #expect(proof.htu == htu, sourceLocation: sourceLocation)
        #expect(abs((proof.iat ?? 0) - Date().timeIntervalSince1970) < 30, sourceLocation: sourceLocation)
        #expect(proof.jti?.count == 22, sourceLocation: sourceLocation)
        #expect(proof.ath == nil, sourceLocation: sourceLocation)
        return proof
    }

    @Test("authorization code: the exchange proves the request's key; htu is the discovered URL with its port, no query")
    func authorizationCode() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let request = try provider.makeAuthorizationRequest(redirectURI: URL(string: "http://127.0.0.1:53682/callback")!,
                                                            scopes: ["profile"], proofing: proofing)
        let (reply, _) = try await provider.completeAuthorization(callbackURL: server.approve(request.url), request: request)
        let tokenRequests = server.requests(to: "/token")
        try #require(tokenRequests.count == 1)
        let proof = try Self.expectTokenRequestProof(tokenRequests[0], of: proofing, htu: server.tokenEndpoint)
        #expect(proof.htu?.contains(":8443/o/token") == true)
        #expect(proof.nonce == nil)
        #expect(reply.tokenType == .dpop)
        #expect(reply.tokens.tokenType == "DPoP")
        #expect(reply.accessToken.scheme == .dpop)
    }

    @Test("device grant: every poll proves, with a fresh jti each")
    func deviceGrant() async throws {
        let server = try FakeAS()
        server.fake.script(.post, server.issuer.path + "/token",
                           .reply(.json(400, #"{"error":"authorization_pending"}"#)), .route)
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let (reply, _) = try await provider.signInWithDevice(scopes: ["profile"], proofing: proofing) { _ in }
        let polls = server.requests(to: "/token")
        try #require(polls.count == 2)
        let proofs = try polls.map { try Self.expectTokenRequestProof($0, of: proofing, htu: server.tokenEndpoint) }
        #expect(Set(proofs.compactMap(\.jti)).count == 2)
        #expect(reply.tokenType == .dpop)
    }

    @Test("client credentials: the grant proves; a sign-in flow runs it with the key")
    func clientCredentials() async throws {
        let server = try FakeAS()
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        let outcome = try await SignInFlow.clientCredentials(provider, scopes: ["read"]).run(proofing: proofing)
        let tokenRequests = server.requests(to: "/token")
        try #require(tokenRequests.count == 1)
        _ = try Self.expectTokenRequestProof(tokenRequests[0], of: proofing, htu: server.tokenEndpoint)
        #expect(tokenRequests[0].header("Authorization")?.hasPrefix("Basic ") == true)
        #expect(outcome.reply.tokenType == .dpop)
        #expect(outcome.accountID == FakeAS.confidentialClientID)
    }

    @Test("the .oauth2 refresher proves with the key of the server the engine passes, and reads token_type DPoP")
    func refresh() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let refreshToken = server.issueRefreshToken(boundTo: proofing.signer.publicKey.thumbprint)
        let api = try Server(baseURL: "https://api.example.test").proving(proofing, everyRequest: true)
        let credentials = Credentials(accessToken: AccessToken("old"), refreshToken: refreshToken, accessTokenExpiresAt: nil,
                                      accountID: "user-42")
        let tokens = try await SessionService.Configuration.oauth2(provider).refresher.refresh(credentials, api)
        let tokenRequests = server.requests(to: "/token")
        try #require(tokenRequests.count == 1)
        _ = try Self.expectTokenRequestProof(tokenRequests[0], of: proofing, htu: server.tokenEndpoint)
        #expect(tokens.tokenType == "DPoP")
    }

    @Test("a bearer session's refresh sends no proof, so a server that refuses proofs with bearer refresh tokens renews it")
    func bearerRefresh() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let refreshToken = server.issueRefreshToken(boundTo: nil)
        let api = try Server(baseURL: "https://api.example.test")
        let credentials = Credentials(accessToken: AccessToken("old"), refreshToken: refreshToken, accessTokenExpiresAt: nil,
                                      accountID: "user-42")
        let tokens = try await SessionService.Configuration.oauth2(provider).refresher.refresh(credentials, api)
        let tokenRequests = server.requests(to: "/token")
        try #require(tokenRequests.count == 1)
        #expect(tokenRequests[0].header("DPoP") == nil)
        #expect(tokens.tokenType.lowercased() == "bearer")
    }

    @Test("the .clientCredentials refresher proves with the engine's server's key, and without one sends no proof")
    func clientCredentialsRefresher() async throws {
        let server = try FakeAS()
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        let refresher = SessionService.Configuration.clientCredentials(provider, scopes: []).refresher
        let credentials = Credentials(accessToken: AccessToken("old"), refreshToken: "", accessTokenExpiresAt: nil, accountID: "ci-job")
        let proved = try await refresher.refresh(credentials, Server(baseURL: "https://api.example.test").proving(proofing, everyRequest: true))
        let plain = try await refresher.refresh(credentials, Server(baseURL: "https://api.example.test"))
        let tokenRequests = server.requests(to: "/token")
        try #require(tokenRequests.count == 2)
        _ = try Self.expectTokenRequestProof(tokenRequests[0], of: proofing, htu: server.tokenEndpoint)
        #expect(tokenRequests[1].header("DPoP") == nil)
        #expect(proved.tokenType == "DPoP")
        #expect(plain.tokenType.lowercased() == "bearer")
    }

    #if EncryptedTokenStore
    @Test("the revoker proves when the session has a key, and not when it has none")
    func revocation() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let api = try Server(baseURL: "https://api.example.test").proving(proofing, everyRequest: true)
        var bound = Credentials(accessToken: AccessToken("bound-access"), refreshToken: "bound-refresh", accessTokenExpiresAt: nil,
                                accountID: "user-42")
        bound.dpopKey = DPoPTestKeys.eddsa()
        let bearer = Credentials(accessToken: AccessToken("bearer-access"), refreshToken: "", accessTokenExpiresAt: nil,
                                 accountID: "user-42")
        try await provider.revoker.revoke(bound, api)
        try await provider.revoker.revoke(bearer, api)
        let revocations = server.requests(to: "/revoke")
        try #require(revocations.count == 3)
        #expect(revocations.map { $0.header("DPoP") != nil } == [true, true, false])
        let proof = try #require(revocations[0].header("DPoP").flatMap(ReceivedDPoPProof.init))
        #expect(proof.htu == server.base + "/revoke")
        #expect(proof.ath == nil)
    }
    #endif

    @Test("over a real loopback socket: the code exchange and userinfo prove, htu names 127.0.0.1 and the port")
    func loopback() async throws {
        let server = try FakeAS(loopback: true)
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let request = try provider.makeAuthorizationRequest(redirectURI: URL(string: "http://127.0.0.1:53682/callback")!,
                                                            scopes: ["profile"], proofing: proofing)
        let (reply, _) = try await provider.completeAuthorization(callbackURL: server.approve(request.url), request: request)
        let claims = try await provider.userInfo(accessToken: reply.accessToken, subject: "user-42", proofing: proofing)
        #expect(claims["sub"]?.string == "user-42")
        let tokenRequest = try #require(server.requests(to: "/token").first)
        let proof = try Self.expectTokenRequestProof(tokenRequest, of: proofing, htu: server.tokenEndpoint)
        #expect(proof.htu?.hasPrefix("http://127.0.0.1:") == true)
    }
}
