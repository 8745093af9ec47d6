import Foundation
@testable import NetworkService
import Testing

@Suite("A nonce challenge is answered by exactly one retry with a new proof (RFC 9449 §8, §9)")
struct DPoPNonceRetryTests {
    typealias RFC = RFC9449Examples
    typealias Fixtures = DPoPWireFixtures

    /// A transport that answers the first `challenges` requests with `challenge`, then 201 `{}`.
    static func challenging(_ challenges: Int, with challenge: TestTransport.Reply) -> TestTransport {
        let count = TestMutex(0)
        return TestTransport { _ in
            let index = count.withLock { value -> Int in value += 1; return value }
            return index <= challenges ? challenge : .json(201, "{}")
        }
    }

    @Test("a 400 use_dpop_nonce (Figure 20): 2 requests, the same body bytes, only the proof replaced: new jti, the nonce")
    func tokenEndpointChallenge() async throws {
        let transport = Self.challenging(1, with: Fixtures.tokenEndpointChallenge)
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(jtis: ["first", "second"]), everyRequest: true)
        try await server.send(Fixtures.Resource.signIn(password: "pw-correct-horse"))
        let requests = transport.requests
        try #require(requests.count == 2)
        #expect(requests[0].body == requests[1].body)
        #expect(requests[0].url == requests[1].url)
        var withoutProof = requests.map { $0.headerFields }
        for index in withoutProof.indices { withoutProof[index]["DPoP"] = nil }
        #expect(withoutProof[0] == withoutProof[1])
        let payloads = requests.map(Fixtures.payload(of:))
        #expect(payloads.map { $0?["jti"] as? String } == ["first", "second"])
        #expect(payloads.map { $0?["nonce"] as? String } == [nil, RFC.nonce])
        #expect(payloads.allSatisfy { $0?["ath"] == nil })
    }

    @Test("a 401 with WWW-Authenticate: DPoP error=\"use_dpop_nonce\" (Figure 24): 2 requests, the second with ath and the nonce")
    func resourceChallenge() async throws {
        let transport = Self.challenging(1, with: Fixtures.resourceChallenge)
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(jtis: ["first", "second"]))
        let body = ["content": "hello"]
        let _: [String: String] = try await server.send(Fixtures.Resource.create(body: body), accessToken: Fixtures.boundToken)
        let requests = transport.requests
        try #require(requests.count == 2)
        #expect(requests[0].body == requests[1].body)
        #expect(requests.map { $0.headerFields["Authorization"] } == Array(repeating: "DPoP " + RFC.accessToken.rawValue, count: 2))
        let payloads = requests.map(Fixtures.payload(of:))
        #expect(payloads.map { $0?["ath"] as? String } == [RFC.ath, RFC.ath])
        #expect(payloads.map { $0?["nonce"] as? String } == [nil, RFC.nonce])
        #expect(requests[0].headerFields["DPoP"] != requests[1].headerFields["DPoP"])
    }

    @Test("with random jtis, the retry's jti is new")
    func freshJTI() async throws {
        let transport = Self.challenging(1, with: Fixtures.resourceChallenge)
        let proofing = DPoPProofing(signer: RecordedSigner(signatureOf: RFC.resourceRequestProof), nonces: DPoPNonces())
        let server = try Server(baseURL: "https://resource.example.org", transport: transport).proving(proofing)
        try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        let jtis = transport.requests.compactMap { Fixtures.payload(of: $0)?["jti"] as? String }
        #expect(jtis.count == 2)
        #expect(Set(jtis).count == 2)
        #expect(jtis.allSatisfy { $0.count == 22 })
    }

    @Test("a second challenge is not answered: 2 requests, and the error says isDPoPNonceChallenge, not a token failure",
          arguments: [DPoPWireFixtures.tokenEndpointChallenge, DPoPWireFixtures.resourceChallenge])
    func secondChallenge(challenge: TestTransport.Reply) async throws {
        let transport = Self.challenging(.max, with: challenge)
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(), everyRequest: true)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        }
        #expect(transport.requests.count == 2)
        #expect(error?.isDPoPNonceChallenge == true)
        #expect(error?.isAuthenticationFailure == false)
        #expect(error?.isAuthenticationFailure(under: AuthenticationFailurePolicy(statusCodes: [400, 401])) == false)
    }

    @Test("a challenge to a request without a proof is not retried: a server that does not prove sends once")
    func notProving() async throws {
        let transport = Self.challenging(.max, with: Fixtures.resourceChallenge)
        let server = try Fixtures.server(transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: AccessToken("plain-bearer"))
        }
        #expect(transport.requests.count == 1)
        #expect(error?.isDPoPNonceChallenge == true)
    }

    @Test("a 401 that refuses the token, not the proof, is a token failure and is not retried")
    func invalidToken() async throws {
        let transport = Self.challenging(.max, with: TestTransport.Reply(status: 401, headers: [
            "WWW-Authenticate": #"DPoP error="invalid_token", algs="ES256""#, "DPoP-Nonce": "n-2",
        ]))
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing())
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        }
        #expect(transport.requests.count == 1)
        #expect(error?.isDPoPNonceChallenge == false)
        #expect(error?.isAuthenticationFailure == true)
    }

    @Test("invalid_dpop_proof is a proof failure, never a token failure, as a challenge or as a code")
    func invalidProof() {
        let challenged = NetworkError(kind: .httpStatus, method: .get, path: "/x", statusCode: 401,
                                      authenticateChallenge: #"Bearer realm="x", DPoP error="invalid_dpop_proof""#)
        let coded = NetworkError(kind: .httpStatus, method: .get, path: "/x", statusCode: 401, serverErrorCode: .invalidDPoPProof)
        let expired = NetworkError(kind: .httpStatus, method: .get, path: "/x", statusCode: 401, serverErrorCode: .tokenExpired)
        #expect(!challenged.isAuthenticationFailure)
        #expect(!coded.isAuthenticationFailure)
        #expect(!challenged.isDPoPNonceChallenge)
        #expect(expired.isAuthenticationFailure)
    }
}
