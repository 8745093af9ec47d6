import Foundation
@testable import NetworkService
import Testing

@Suite("A proving server puts DPoP proofs on the wire (RFC 9449 §7)")
struct DPoPRequestTests {
    typealias RFC = RFC9449Examples
    typealias Fixtures = DPoPWireFixtures

    @Test("a request with a DPoP-bound token carries Authorization: DPoP and Figure 14's proof, byte for byte")
    func figure14() throws {
        let transport = TestTransport(always: .status(200))
        for base in ["https://resource.example.org", "HTTPS://Resource.Example.ORG:443/", "https://resource.example.org//"] {
            let server = try Fixtures.server(base, transport: transport, proofing: Fixtures.proofing())
            let request = try server.makeRequest(for: Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
            #expect(request.headerFields["DPoP"] == RFC.resourceRequestProof, "base \(base)")
            #expect(request.headerFields["Authorization"] == "DPoP Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
        }
    }

    @Test("sent, the request carries the same proof: the transport sees Figure 14's")
    func sentProof() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing())
        try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        #expect(transport.requests.map { $0.headerFields["DPoP"] } == [RFC.resourceRequestProof])
    }

    @Test("htu is the base URL's path and the endpoint's, without the query, scheme and host lowercased, default port dropped")
    func htuFromThePrefix() throws {
        let transport = TestTransport(always: .status(200))
        let cases: [(String, String)] = [
            ("HTTPS://API.Example.COM:443/base/", "https://api.example.com/base/v1/posts"),
            ("https://api.example.com:8443", "https://api.example.com:8443/v1/posts"),
            ("http://127.0.0.1:80/", "http://127.0.0.1/v1/posts"),
            ("http://[::1]:8080/a%20b", "http://[::1]:8080/a%20b/v1/posts"),
        ]
        for (base, htu) in cases {
            let server = try Fixtures.server(base, transport: transport, proofing: Fixtures.proofing())
            let request = try server.makeRequest(for: Fixtures.Resource.create(body: ["content": "x"]), accessToken: Fixtures.boundToken)
            #expect(Fixtures.payload(of: request)?["htu"] as? String == htu, "base \(base)")
            #expect(Fixtures.payload(of: request)?["htm"] as? String == "POST")
        }
        let search = try Fixtures.server(transport: transport, proofing: Fixtures.proofing())
            .makeRequest(for: SampleEndpoint.list(threshold: 3, pageSize: 20), accessToken: Fixtures.boundToken)
        #expect(search.url.query != nil)
        #expect(Fixtures.payload(of: search)?["htu"] as? String == "https://resource.example.org/v1/samples")
    }

    @Test("with everyRequest, a request without a token gets a proof without ath, and a bearer token stays Bearer")
    func everyRequest() throws {
        let transport = TestTransport(always: .status(200))
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(jtis: ["a", "b", "c"]), everyRequest: true)
        let ping = try server.makeRequest(for: Fixtures.Resource.ping)
        #expect(ping.headerFields["Authorization"] == nil)
        #expect(Fixtures.payload(of: ping)?["ath"] == nil)
        #expect(Fixtures.payload(of: ping)?["jti"] as? String == "a")
        let bearer = try server.makeRequest(for: Fixtures.Resource.protectedResource, accessToken: AccessToken("plain-bearer"))
        #expect(bearer.headerFields["Authorization"] == "Bearer plain-bearer")
        #expect(Fixtures.payload(of: bearer)?["ath"] == nil)
        #expect(Fixtures.payload(of: bearer)?["jti"] as? String == "b")
        let bound = try server.makeRequest(for: Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        #expect(Fixtures.payload(of: bound)?["ath"] as? String == RFC.ath)
    }

    @Test("without everyRequest, only a request with a DPoP-bound token carries a proof")
    func onlyBoundTokens() throws {
        let server = try Fixtures.server(transport: TestTransport(always: .status(200)), proofing: Fixtures.proofing())
        #expect(try server.makeRequest(for: Fixtures.Resource.ping).headerFields["DPoP"] == nil)
        let bearer = try server.makeRequest(for: Fixtures.Resource.protectedResource, accessToken: AccessToken("plain-bearer"))
        #expect(bearer.headerFields["DPoP"] == nil)
        #expect(bearer.headerFields["Authorization"] == "Bearer plain-bearer")
    }

    @Test("a server that does not prove sends Bearer and no proof, as before")
    func bearerServer() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Fixtures.server(transport: transport)
        try await server.send(Fixtures.Resource.protectedResource, accessToken: AccessToken("plain-bearer"))
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.headerFields == ["Accept": "application/json", "Authorization": "Bearer plain-bearer"])
    }

    @Test("a DPoP-bound token on a server that does not prove is refused before a byte is sent")
    func boundTokenWithoutProofing() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Fixtures.server(transport: transport)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.description.contains("Server.proving") == true)
        #expect(transport.requests.isEmpty)
        #expect(throws: NetworkError.self) {
            try server.authorizationFields(method: .get, url: URL(string: "https://resource.example.org/x")!, accessToken: Fixtures.boundToken)
        }
    }

    @Test("a signer that cannot sign stops the request before a byte is sent")
    func signerFails() async throws {
        let transport = TestTransport(always: .status(204))
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(signer: FailingSigner()))
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.underlying is DPoPSigningError)
        #expect(transport.requests.isEmpty)
    }

    @Test("a nonce from a 200 goes into the next proof to that origin only (RFC 9449 Figure 23)")
    func noncesPerOrigin() async throws {
        let nonces = DPoPNonces()
        let transport = TestTransport { request in
            request.url.host == "rs.example.org"
                ? TestTransport.Reply(status: 204, headers: ["DPoP-Nonce": "eyJ7S_zG.eyJbYu3.xQmBj-1"]) : .status(204)
        }
        let first = try Fixtures.server("https://rs.example.org", transport: transport, proofing: Fixtures.proofing(nonces: nonces))
        let other = try Fixtures.server("https://other.example.org", transport: transport, proofing: Fixtures.proofing(nonces: nonces))
        try await first.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        try await first.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        try await other.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        let sentNonces = transport.requests.map { Fixtures.payload(of: $0)?["nonce"] as? String }
        #expect(sentNonces == [nil, "eyJ7S_zG.eyJbYu3.xQmBj-1", nil])
        #expect(nonces.nonce(forOrigin: "https://rs.example.org:443") == "eyJ7S_zG.eyJbYu3.xQmBj-1")
    }

    @Test("a server that does not prove keeps no nonce")
    func bearerServerKeepsNoNonce() async throws {
        let transport = TestTransport(always: TestTransport.Reply(status: 204, headers: ["DPoP-Nonce": "n-1"]))
        try await Fixtures.server(transport: transport).send(Fixtures.Resource.protectedResource, accessToken: AccessToken("plain-bearer"))
        #expect(DPoPNonces.shared.nonce(forOrigin: "https://resource.example.org:443") == nil)
    }

    @Test("authorizationFields: Authorization and a proof for the URL without its query, for a handler's own request")
    func authorizationFields() throws {
        let nonces = DPoPNonces()
        nonces.remember("n-7", forOrigin: "https://resource.example.org:443")
        let server = try Fixtures.server("https://api.example.com", transport: TestTransport(always: .status(200)),
                                         proofing: Fixtures.proofing(nonces: nonces))
        let url = URL(string: "https://Resource.Example.org:443/protectedresource?x=1#f")!
        let fields = try server.authorizationFields(method: .get, url: url, accessToken: Fixtures.boundToken)
        #expect(fields.keys.sorted() == ["Authorization", "DPoP"])
        #expect(fields["Authorization"] == "DPoP " + RFC.accessToken.rawValue)
        let payload = RFC.payload(of: fields["DPoP"] ?? "")
        #expect(payload == #"{"jti":"e1j3V_bKic8-LAEB","htm":"GET","htu":"https://resource.example.org/protectedresource","iat":1562262618,"ath":"fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo","nonce":"n-7"}"#)
        let bearerOnly = try server.authorizationFields(method: .get, url: url, accessToken: AccessToken("plain-bearer"))
        #expect(bearerOnly == ["Authorization": "Bearer plain-bearer"])
    }

    @Test("the ath of the last token is kept, and a new token gets its own")
    func athCache() {
        let proofing = Fixtures.proofing()
        #expect(proofing.ath(of: Fixtures.boundToken) == RFC.ath)
        #expect(proofing.ath(of: Fixtures.boundToken) == RFC.ath)
        #expect(proofing.ath(of: AccessToken("another")) == DPoPProof.ath(of: AccessToken("another")))
        #expect(proofing.ath(of: Fixtures.boundToken) == RFC.ath)
    }

    @Test("an access token is bearer unless made DPoP; its scheme shows, never its value")
    func tokenScheme() {
        #expect(AccessToken("t-value-1").scheme == .bearer)
        #expect(Fixtures.boundToken.scheme == .dpop)
        #expect(AccessToken("t-value-1") != AccessToken("t-value-1", scheme: .dpop))
        var dumped = ""
        dump(Fixtures.boundToken, to: &dumped)
        #expect(dumped.contains("dpop"))
        #expect(!dumped.contains(RFC.accessToken.rawValue))
    }
}
