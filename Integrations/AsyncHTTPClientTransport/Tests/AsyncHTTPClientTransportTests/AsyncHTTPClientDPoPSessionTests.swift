import AppSDKTesting
import AsyncHTTPClientTransport
import Foundation
import HostileServerKit
import NetworkService
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// A DPoP-bound session (RFC 9449, an EdDSA key) whose requests go through the AsyncHTTPClient
/// transport: its sign-in and its API calls each carry a proof that names the request (`htm`,
/// `htu`, and `ath` checked here with a SHA-256 of this file's own), signed by the stored key,
/// and the calls send `Authorization: DPoP`; a nonce challenge's `DPoP-Nonce` comes back
/// through the transport and goes into the retry's proof.
@Suite("A DPoP-bound session over AsyncHTTPClient proves every call")
struct AsyncHTTPClientDPoPSessionTests {
    /// `GET {issuer}/api/me`.
    struct Me: Endpoint {
        var method: HTTPMethod { .get }
        var path: EndpointPath { "/me" }
    }

    static let nonce = "Nq.ahc-1"

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func segment(_ text: Substring) -> [String: Any]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// The proof's header and payload.
    static func proof(of request: LoopbackHTTPServer.Request) -> (header: [String: Any], payload: [String: Any])? {
        let parts = request.header("DPoP")?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        guard parts.count == 3, let header = segment(parts[0]), let payload = segment(parts[1]) else { return nil }
        return (header, payload)
    }

    @Test("SHA-256 of this file's own gives RFC 9449's ath of its example token (Figure 14)")
    func referenceHash() {
        #expect(Self.base64URL(SHA256Reference.hash(Array("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU".utf8)))
            == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test("the sign-in and the API call carry proofs naming them, by the stored key, with Authorization: DPoP and the nonce the API asked for")
    func sessionProves() async throws {
        let provider = try HostileProvider(script: HostileScript { script in
            script.dpop = true
            // The API asks for a nonce first (RFC 9449 Figure 24), then answers a proof carrying it.
            script.api = { context in
                guard let nonce = Self.proof(of: context.request)?.payload["nonce"] as? String, nonce == Self.nonce else {
                    return .respond(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": Self.nonce])
                }
                return HostileAnswers.api(context)
            }
        })
        defer { provider.stop() }
        let transport = AsyncHTTPClientTransport(timeout: 10)
        var oauth = try await OAuthProvider.discover(issuer: provider.issuer, clientID: HostileSecrets.clientID,
                                                     clientSecret: HostileSecrets.clientSecret, transport: transport)
        oauth.dpop = .eddsa
        let store = InMemoryTokenStore()
        let session = SessionService(server: try Server(baseURL: provider.issuer.absoluteString + "/api", transport: transport),
                                     tokenStore: store, configuration: .oauth2(oauth))
        _ = try await session.signIn(with: .clientCredentials(oauth, scopes: ["read"]))
        // Answered 200 only for a DPoP token with a proof carrying the nonce.
        try await session.request { server, token in try await server.send(Me(), accessToken: token) }

        let key = try #require(try await store.load()?.dpopKey)
        let base = "http://127.0.0.1:\(provider.port)" + provider.issuer.path
        let token = try #require(provider.requests.first { $0.route == .token })
        let tokenProof = try #require(Self.proof(of: token.request))
        #expect(tokenProof.payload["htm"] as? String == "POST")
        #expect(tokenProof.payload["htu"] as? String == base + "/token")
        #expect(tokenProof.payload["ath"] == nil)

        let calls = provider.requests.filter { $0.route == .api }
        try #require(calls.count == 2)
        for call in calls {
            #expect(call.request.header("Authorization") == "DPoP " + HostileSecrets.accessToken)
            let proof = try #require(Self.proof(of: call.request))
            #expect(proof.header["typ"] as? String == "dpop+jwt")
            #expect(proof.header["alg"] as? String == "EdDSA")
            let jwk = try #require(proof.header["jwk"] as? [String: Any])
            let x = try #require((jwk["x"] as? String).flatMap { Self.segmentBytes($0) })
            #expect(DPoPPublicKey.okp(crv: "Ed25519", x: x).thumbprint == key.thumbprint)
            #expect(proof.payload["htm"] as? String == "GET")
            #expect(proof.payload["htu"] as? String == base + "/api/me")
            #expect(proof.payload["ath"] as? String == Self.base64URL(SHA256Reference.hash(Array(HostileSecrets.accessToken.utf8))))
        }
        // The first call carries no nonce from this server (another test's may share its port).
        #expect(Self.proof(of: calls[0].request)?.payload["nonce"] as? String != Self.nonce)
        #expect(Self.proof(of: calls[1].request)?.payload["nonce"] as? String == Self.nonce)
        #expect(calls[0].request.header("DPoP") != calls[1].request.header("DPoP"))
    }

    static func segmentBytes(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { Array($0) }
    }
}
