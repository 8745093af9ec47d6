import Foundation
@testable import OAuthSignIn
@testable import SessionEngine
import Testing

@Suite("token_type DPoP is accepted only in answer to a request that proved a key (RFC 9449 §5, RFC 6749 §7.1)")
struct DPoPTokenTypeTests {
    typealias FakeAS = DPoPFakeAuthorizationServer

    static func object(_ type: String?) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["access_token": .string("at-1"), "refresh_token": .string("rt-1")]
        if let type { object["token_type"] = .string(type) }
        return object
    }

    @Test("DPoP, in any case, with a proof: a DPoP reply", arguments: ["DPoP", "dpop", "DPOP"])
    func acceptedWithProof(type: String) throws {
        let reply = try #require(TokenReply(Self.object(type), proved: true))
        #expect(reply.tokenType == .dpop)
        #expect(reply.accessToken.scheme == .dpop)
        #expect(reply.tokens.accessToken.scheme == .bearer)   // the stored value carries no scheme
    }

    @Test("DPoP without a proof: refused, saying why")
    func refusedWithoutProof() {
        #expect(TokenReply(Self.object("DPoP")) == nil)
        #expect(TokenReply.problem(in: Self.object("dpop"))?.contains("proved no key") == true)
    }

    @Test("a Bearer answer to a proof is kept and says it is Bearer, for the caller's bearer-answer policy",
          arguments: ["Bearer", "bearer", nil] as [String?])
    func bearerAnswerToProof(type: String?) throws {
        let reply = try #require(TokenReply(Self.object(type), proved: true))
        #expect(reply.tokenType == .bearer)
        #expect(reply.accessToken.scheme == .bearer)
    }

    @Test("another type is refused with or without a proof", arguments: [true, false])
    func otherTypes(proved: Bool) {
        #expect(TokenReply(Self.object("mac"), proved: proved) == nil)
        #expect(TokenReply(Self.object("N_A"), proved: proved) == nil)
    }

    @Test("a server that answers token_type DPoP to a bearer sign-in fails it with invalidResponse, nothing kept")
    func serverSendsDPoPToBearer() async throws {
        let server = try FakeAS()
        server.configure { $0.tokenTypeOverride = "DPoP" }
        let provider = try await server.confidentialProvider()
        let error = await #expect(throws: SignInError.self) {
            try await SignInFlow.clientCredentials(provider, scopes: []).run()
        }
        #expect(error?.kind == .invalidResponse)
        let bound = try await SignInFlow.clientCredentials(provider, scopes: []).run(proofing: FakeAS.proofing())
        #expect(bound.reply.tokenType == .dpop)
    }
}
