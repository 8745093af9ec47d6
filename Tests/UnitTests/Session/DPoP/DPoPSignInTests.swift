#if EncryptedTokenStore
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 36, step 5: a sign-in through `startSession(accountID:signingInWith:)` binds the session
/// to a new key when DPoP is configured, and the calls prove with it.
@Suite("A DPoP sign-in makes the session's key and the calls prove with it")
struct DPoPSignInTests {
    static func signIn(_ service: SessionService) async throws -> String {
        try await service.startSession(accountID: "kim") { server in
            try await OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: "cli")
                .passwordGrant(username: "kim", password: "pw-123456789", server: server)
        }
    }

    @Test("a sign-in makes an EdDSA key, proves the token request with it and stores it with the DPoP tokens")
    func signInMakesAndStoresKey() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store,
                                     configuration: fake.configuration(clock: TestClock(), dpop: DPoPConfiguration(keys: .eddsa)))
        #expect(try await Self.signIn(service) == "kim")
        let stored = try #require(try await store.load())
        let key = try #require(stored.dpopKey)
        #expect(key.algorithm == "EdDSA")
        #expect(stored.accessTokenType == "DPoP")
        let request = try #require(fake.tokenRequests.first)
        let proof = try #require(DPoPProofReader(request))
        #expect(proof.signatureVerifies)
        #expect(proof.jwkThumbprint == key.thumbprint)
        #expect(proof.payload["htm"] as? String == "POST")
        #expect(proof.payload["htu"] as? String == fake.baseURL + DPoPTokenServer.tokenPath)
        #expect(proof.payload["ath"] == nil, "a token request carries no access token")
    }

    @Test("a call sends Authorization: DPoP with a proof whose ath is the access token's hash")
    func callSendsDPoPWithATH() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store,
                                     configuration: fake.configuration(clock: TestClock(), dpop: DPoPConfiguration(keys: .eddsa)))
        _ = try await Self.signIn(service)
        try await service.request { server, token in try await server.send(DPoPMeEndpoint(), accessToken: token) }
        let call = try #require(fake.resourceRequests.first)
        #expect(call.headerFields["Authorization"] == "DPoP at-1")
        let proof = try #require(DPoPProofReader(call))
        #expect(proof.payload["ath"] as? String == DPoPProof.ath(of: AccessToken("at-1")))
        #expect(proof.payload["htm"] as? String == "GET")
        #expect(proof.signatureVerifies)
        #expect(proof.jwkThumbprint == (try await store.load())?.dpopKey?.thumbprint)
    }

    @Test("a sign-out's revocation proves with the session's key and sends its DPoP token as DPoP")
    func signOutProves() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        var configuration = fake.configuration(clock: TestClock(), dpop: DPoPConfiguration(keys: .eddsa))
        configuration.revoker = SessionRevoker(usesAccessToken: true) { credentials, server in
            try await server.send(DPoPMeEndpoint(), accessToken: credentials.accessToken)
        }
        let service = SessionService(server: try fake.server(), tokenStore: store, configuration: configuration)
        _ = try await Self.signIn(service)
        let key = try #require(try await store.load()?.dpopKey)
        let result = try await service.signOut()
        #expect(result.serverError == nil)
        let revocation = try #require(fake.resourceRequests.last)
        #expect(revocation.headerFields["Authorization"] == "DPoP at-1")
        #expect(DPoPProofReader(revocation)?.jwkThumbprint == key.thumbprint)
        #expect(try await store.load() == nil)
    }

    @Test("a bearer answer under .refuse fails with dpopNotHonoured and stores nothing")
    func bearerAnswerRefused() async throws {
        let fake = DPoPTokenServer()
        fake.set { $0.mode = .bearer }
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store,
                                     configuration: fake.configuration(clock: TestClock(), dpop: DPoPConfiguration(keys: .eddsa)))
        let error = await #expect(throws: SessionError.self) { try await Self.signIn(service) }
        #expect(error?.kind == .dpopNotHonoured)
        #expect(try await store.load() == nil)
        #expect(try await service.isSignedIn() == false)
    }

    @Test("a bearer answer under .accept is kept with its key, and calls send Bearer")
    func bearerAnswerAccepted() async throws {
        let fake = DPoPTokenServer()
        fake.set { $0.mode = .bearer }
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store, configuration: fake.configuration(
            clock: TestClock(), dpop: DPoPConfiguration(keys: .eddsa, bearerAnswer: .accept)))
        _ = try await Self.signIn(service)
        let stored = try #require(try await store.load())
        #expect(stored.dpopKey != nil)
        #expect(stored.accessTokenType == nil)
        try await service.request { server, token in try await server.send(DPoPMeEndpoint(), accessToken: token) }
        #expect(fake.resourceRequests.first?.headerFields["Authorization"] == "Bearer at-1")
        #expect(fake.resourceRequests.first?.headerFields["DPoP"] == nil, "a bearer token's call needs no proof")
    }

    @Test("without DPoP configured, the sign-in is an ordinary one: no proof, no key")
    func withoutDPoPOrdinarySignIn() async throws {
        let fake = DPoPTokenServer()
        fake.set { $0.mode = .bearer }
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store,
                                     configuration: fake.configuration(clock: TestClock(), dpop: nil))
        _ = try await Self.signIn(service)
        #expect(fake.tokenRequests.first?.headerFields["DPoP"] == nil)
        let stored = try #require(try await store.load())
        #expect(stored.dpopKey == nil)
        #expect(stored.accessTokenType == nil)
    }

    @Test("a DPoP token answered to a sign-in without a proof is refused by the preset (RFC 6749 §7.1)")
    func unprovedDPoPAnswerRefused() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let service = SessionService(server: try fake.server(), tokenStore: store,
                                     configuration: fake.configuration(clock: TestClock(), dpop: nil))
        await #expect(throws: NetworkError.self) { try await Self.signIn(service) }
        #expect(try await store.load() == nil)
    }
}

/// `GET /v1/me`.
struct DPoPMeEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/v1/me" }
}
#endif
