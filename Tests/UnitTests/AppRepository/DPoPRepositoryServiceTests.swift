#if EncryptedTokenStore
import AppRepository
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 36, step 9: the app's sign-ins go through the engine's DPoP sign-in, so with
/// `Configuration.dpop` set a RepositoryService session is bound to a key, and the `.appAPI`
/// preset's refresh and sign-out prove with the stored key.
@Suite("RepositoryService sessions bound to a DPoP key on the app's server")
struct DPoPRepositoryServiceTests {
    /// The three sign-ins of RepositoryService.
    enum SignIn: String, CaseIterable, Sendable {
        case signUp, signIn, anonymous

        var path: String {
            switch self {
            case .signUp: "/v1/auth/sign-up"
            case .signIn: "/v1/auth/sign-in"
            case .anonymous: "/v1/auth/anonymous"
            }
        }

        func run(_ service: RepositoryService) async throws -> Member {
            switch self {
            case .signUp: try await service.signUp(email: "kim@example.com", password: "pw-123456789", nickname: "kim")
            case .signIn: try await service.signIn(email: "kim@example.com", password: "pw-123456789")
            case .anonymous: try await service.signInAnonymously()
            }
        }
    }

    @Test("each sign-in proves a new key and stores it with the DPoP tokens under the member's id", arguments: SignIn.allCases)
    func signInBindsTheSession(signIn: SignIn) async throws {
        let fake = DPoPAppServer()
        let store = InMemoryTokenStore()
        let service = try fake.service(store: store)
        let events = service.events()
        var iterator = events.makeAsyncIterator()
        let member = try await signIn.run(service)
        #expect(member.id.uuidString == DPoPAppServer.memberID)
        let stored = try #require(try await store.load())
        let key = try #require(stored.dpopKey)
        #expect(key.algorithm == "EdDSA")
        #expect(stored.accessTokenType == "DPoP")
        #expect(stored.accountID == DPoPAppServer.memberID)
        #expect(await iterator.next() == .signedIn(accountID: DPoPAppServer.memberID))
        let request = try #require(fake.requests(to: signIn.path).first)
        let proof = try #require(DPoPProofReader(request))
        #expect(proof.signatureVerifies)
        #expect(proof.jwkThumbprint == key.thumbprint)
        #expect(proof.payload["htu"] as? String == fake.baseURL + signIn.path)
        #expect(proof.payload["ath"] == nil, "a sign-in carries no access token")
    }

    /// A fake DPoP server, a memory store and a service signed in to it as kim.
    static func signedIn() async throws -> (DPoPAppServer, InMemoryTokenStore, RepositoryService) {
        let fake = DPoPAppServer()
        let store = InMemoryTokenStore()
        let service = try fake.service(store: store)
        try await service.signIn(email: "kim@example.com", password: "pw-123456789")
        return (fake, store, service)
    }

    @Test("a call after a DPoP sign-in sends Authorization: DPoP with a proof of the stored key whose ath is the token's hash")
    func callProvesWithTheStoredKey() async throws {
        let (fake, store, service) = try await Self.signedIn()
        let me = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(me.id.uuidString == DPoPAppServer.memberID)
        let call = try #require(fake.requests(to: "/v1/members/me").first)
        #expect(call.headerFields["Authorization"] == "DPoP at-1")
        let proof = try #require(DPoPProofReader(call))
        #expect(proof.payload["ath"] as? String == DPoPProof.ath(of: AccessToken("at-1")))
        #expect(proof.jwkThumbprint == (try await store.load())?.dpopKey?.thumbprint)
    }

    @Test("the .appAPI refresh proves with the stored key, takes the DPoP answer and keeps the key")
    func refreshProvesAndKeepsTheKey() async throws {
        let (fake, store, service) = try await Self.signedIn()
        let key = try #require(try await store.load()?.dpopKey)
        fake.expireAccessTokens()
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        let refresh = try #require(fake.requests(to: "/v1/auth/refresh").first)
        #expect(DPoPProofReader(refresh)?.jwkThumbprint == key.thumbprint)
        #expect(refresh.headerFields["Authorization"] == nil)
        let stored = try #require(try await store.load())
        #expect(stored.dpopKey == key, "a refresh never changes the key")
        #expect(stored.accessTokenType == "DPoP")
        #expect(stored.refreshToken == "rt-2")
        #expect(fake.refreshesByJKT == [key.thumbprint: 1])
        #expect(fake.requests(to: "/v1/members/me").last?.headerFields["Authorization"] == "DPoP at-2")
    }

    @Test("sign-out sends the access token as DPoP with a proof of the stored key")
    func signOutProves() async throws {
        let (fake, store, service) = try await Self.signedIn()
        let key = try #require(try await store.load()?.dpopKey)
        let result = try await service.signOut()
        #expect(result.serverError == nil)
        let signOut = try #require(fake.requests(to: "/v1/auth/sign-out").first)
        #expect(signOut.headerFields["Authorization"] == "DPoP at-1")
        let proof = try #require(DPoPProofReader(signOut))
        #expect(proof.jwkThumbprint == key.thumbprint)
        #expect(proof.payload["ath"] as? String == DPoPProof.ath(of: AccessToken("at-1")))
        #expect(try await store.load() == nil)
    }

    @Test("a nonce challenge to the sign-in is answered by exactly one retry carrying the new nonce")
    func signInNonceChallengeRetriedOnce() async throws {
        let fake = DPoPAppServer()
        fake.set { $0.nonce = "n-\(UUID().uuidString.prefix(8))" }
        let store = InMemoryTokenStore()
        let service = try fake.service(store: store)
        try await service.signIn(email: "kim@example.com", password: "pw-123456789")
        let attempts = fake.requests(to: "/v1/auth/sign-in")
        #expect(attempts.count == 2)
        #expect(fake.nonceChallenges == 1)
        #expect(DPoPProofReader(attempts[1])?.payload["nonce"] as? String == fake.state.withLock { $0.nonce })
        #expect(try await store.load()?.accessTokenType == "DPoP")
    }

    @Test("a bearer answer to a DPoP sign-in is refused (dpopNotHonoured) and nothing is stored")
    func bearerAnswerRefused() async throws {
        let fake = DPoPAppServer()
        fake.set { $0.answersBearer = true }
        let store = InMemoryTokenStore()
        let service = try fake.service(store: store)
        let error = await #expect(throws: SessionError.self) {
            try await service.signIn(email: "kim@example.com", password: "pw-123456789")
        }
        #expect(error?.kind == .dpopNotHonoured)
        #expect(try await store.load() == nil)
    }

    @Test("without Configuration.dpop a sign-in is a bearer session as before: no proof, no key", arguments: SignIn.allCases)
    func withoutDPoPBearerAsBefore(signIn: SignIn) async throws {
        let fake = DPoPAppServer()
        let store = InMemoryTokenStore()
        let service = try fake.service(store: store, dpop: nil)
        _ = try await signIn.run(service)
        #expect(fake.requests(to: signIn.path).first?.headerFields["DPoP"] == nil)
        let stored = try #require(try await store.load())
        #expect(stored.dpopKey == nil && stored.accessTokenType == nil)
        #expect(stored.accountID == DPoPAppServer.memberID)
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(fake.requests(to: "/v1/members/me").first?.headerFields["Authorization"] == "Bearer at-1")
    }

    @Test("a DPoP token type answered to a sign-in or refresh that carried no proof is refused, naming the type, never a token")
    func unprovedDPoPAnswerRefused() async throws {
        let fake = DPoPAppServer()
        fake.set { $0.answersDPoPAlways = true }
        let plain = try fake.server
        let signIn = await #expect(throws: NetworkError.self) {
            try await AuthAPI.signIn(email: "kim@example.com", password: "pw-123456789", server: plain)
        }
        #expect(signIn?.kind == .decoding)
        let text = signIn.map { String(describing: $0) + ($0.errorDescription ?? "") } ?? ""
        #expect(text.contains("token type \"DPoP\""), "\(text)")
        #expect(!text.contains("at-1") && !text.contains("rt-1"), "\(text)")
        let refresh = await #expect(throws: NetworkError.self) { try await AuthAPI.refresh(refreshToken: "rt-1", server: plain) }
        #expect(refresh?.kind == .decoding)
        #expect(refresh.map { String(describing: $0) }?.contains("rt-") == false)
        // The same answers through a server that proves every request are taken.
        let proving = plain.proving(try EdDSASigner.generate(), everyRequest: true)
        #expect(try await AuthAPI.signIn(email: "kim@example.com", password: "pw-123456789", server: proving).tokens.tokenType == "DPoP")
    }

    @Test("a refresh token copied without its key is refused, and the owner's session still refreshes")
    func refreshTokenWithoutItsKeyRefused() async throws {
        let (fake, store, service) = try await Self.signedIn()
        let stolen = try #require(try await store.load()?.refreshToken)
        for thief in [try fake.server, try fake.server.proving(try EdDSASigner.generate(), everyRequest: true)] {
            let error = await #expect(throws: NetworkError.self) { try await AuthAPI.refresh(refreshToken: stolen, server: thief) }
            #expect(error?.statusCode == 401 && error?.serverErrorCode == .invalidDPoPProof)
        }
        fake.expireAccessTokens()
        _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        #expect(try await store.load()?.refreshToken == "rt-2")
    }
}
#endif
