import AppSDKHarness
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine
import Testing
import TokenStore

@Suite("A hostile authorization server's nonces and echoes neither loop nor leak a proof, nonce or token")
struct DPoPHostileServerTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    /// Every text a caller could print of `error`.
    static func printed(_ error: any Error) -> [String] {
        var texts = [String(describing: error), String(reflecting: error), error.localizedDescription]
        var dumped = ""
        dump(error, to: &dumped)
        texts.append(dumped)
        if let signIn = error as? SignInError, let underlying = signIn.underlying {
            texts += [String(describing: underlying), String(reflecting: underlying)]
        }
        return texts
    }

    /// Fails for each secret of the server found in a text of `error`.
    static func expectNoSecret(of server: FakeAS, in error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        let texts = printed(error)
        for secret in server.secrets where secret.count >= 8 {
            // A secret, or a 40-character stretch of a long one, is never printed.
            let probe = String(secret.prefix(40))
            #expect(!texts.contains { $0.contains(probe) }, "a secret of \(secret.count) characters was printed",
                    sourceLocation: sourceLocation)
        }
    }

    /// A confidential provider, its key, and a DPoP access token got before the server turns hostile.
    static func signedIn(_ server: FakeAS) async throws -> (OAuthProvider, DPoPProofing, TokenReply) {
        let provider = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        return (provider, proofing, try await provider.clientCredentialsGrant(scopes: [], proofing: proofing))
    }

    @Test("a 10 KB nonce is no nonce: not retried, not kept, not printed", arguments: ["/token", "/userinfo"])
    func hugeNonce(path: String) async throws {
        let server = try FakeAS()
        let (provider, proofing, reply) = try await Self.signedIn(server)
        let huge = String(repeating: "N0nce-", count: 1_750)   // 10,500 bytes of NQCHAR
        server.configure { $0.challengesEveryProof = true; $0.challengeNonceOverride = huge; $0.echoesIntoErrors = true }
        let before = server.requests(to: path).count
        let error = await Self.failure(path, provider, proofing, reply)
        #expect(server.requests(to: path).count - before == 1)
        #expect(proofing.nonces.count == 0)
        Self.expectNoSecret(of: server, in: error)
    }

    @Test("a DPoP-Nonce with control characters is not retried with, not kept, not echoed", arguments: ["/token", "/userinfo"])
    func controlCharacters(path: String) async throws {
        let server = try FakeAS()
        let (provider, proofing, reply) = try await Self.signedIn(server)
        let hostile = "n1\r\nSet-Cookie: stolen=1\u{1B}[2J"
        server.configure { $0.challengesEveryProof = true; $0.challengeNonceOverride = hostile; $0.echoesIntoErrors = true }
        let before = server.requests(to: path).count
        let error = await Self.failure(path, provider, proofing, reply)
        #expect(server.requests(to: path).count - before == 1)
        #expect(proofing.nonces.count == 0)
        let texts = Self.printed(try #require(error))
        #expect(!texts.contains { $0.contains("\u{1B}") || $0.contains("Set-Cookie: stolen") })
        Self.expectNoSecret(of: server, in: error)
    }

    @Test("challenges without end make exactly 2 requests, and the proofs and nonces echoed back are never printed",
          arguments: ["/token", "/userinfo"])
    func endlessEchoingChallenges(path: String) async throws {
        let server = try FakeAS()
        let (provider, proofing, reply) = try await Self.signedIn(server)
        server.configure { $0.challengesEveryProof = true; $0.echoesIntoErrors = true }
        let before = server.requests(to: path).count
        let error = await Self.failure(path, provider, proofing, reply)
        #expect(server.requests(to: path).count - before == 2)
        let network = (error as? NetworkError) ?? ((error as? SignInError)?.underlying as? NetworkError)
        #expect(network?.isDPoPNonceChallenge == true)
        Self.expectNoSecret(of: server, in: error)
        // The SignInError a sign-in would show, too.
        if let network { Self.expectNoSecret(of: server, in: SignInError.from(network, endpoint: "token endpoint")) }
    }

    @Test("a refused proof echoed in the error body is never printed")
    func echoedRefusal() async throws {
        let server = try FakeAS()
        server.configure { $0.echoesIntoErrors = true }
        let provider = try await server.provider()
        let refreshToken = server.issueRefreshToken(boundTo: try FakeAS.proofing().signer.publicKey.thumbprint)
        let credentials = Credentials(accessToken: AccessToken("old"), refreshToken: refreshToken, accessTokenExpiresAt: nil,
                                      accountID: "user-42")
        let error = await #expect(throws: NetworkError.self) {
            try await provider.refresh(credentials, proofing: FakeAS.proofing())
        }
        #expect(error?.serverErrorCode == .invalidDPoPProof)
        #expect(error?.serverMessage?.contains("refused proof") == true)
        Self.expectNoSecret(of: server, in: error)
    }

    @Test("the proofing and a DPoP authorization request print no proof, nonce or key material")
    func descriptions() async throws {
        let server = try FakeAS()
        server.configure { $0.requiresNonce = true }
        let (provider, proofing, _) = try await Self.signedIn(server)
        let request = try provider.makeAuthorizationRequest(redirectURI: URL(string: "http://127.0.0.1:1/callback")!,
                                                            scopes: ["profile"], proofing: proofing)
        var texts = [String(describing: proofing), String(reflecting: proofing), String(describing: request)]
        var dumped = ""
        dump(request, to: &dumped)
        texts.append(dumped)
        for secret in server.secrets where secret.count >= 8 {
            #expect(!texts.contains { $0.contains(secret) })
        }
        #expect(!texts.contains { $0.contains(request.state) || $0.contains(request.codeVerifier) })
    }

    /// The failure of a request to `path` (a client credentials grant, or userinfo with `reply`'s token).
    static func failure(_ path: String, _ provider: OAuthProvider, _ proofing: DPoPProofing, _ reply: TokenReply) async -> (any Error)? {
        do {
            if path == "/token" {
                _ = try await provider.clientCredentialsGrant(scopes: [], proofing: proofing)
            } else {
                _ = try await provider.userInfo(accessToken: reply.accessToken, subject: nil, proofing: proofing)
            }
            return nil
        } catch {
            return error
        }
    }
}
