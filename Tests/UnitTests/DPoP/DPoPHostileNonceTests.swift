import Foundation
@testable import NetworkService
import Testing

/// Hostile answers to a proving server at the NetworkService layer alone (a test transport):
/// the hostile-server kit's DPoP modes (`HostileMode+DPoP.swift`) attack the same inputs
/// through whole DPoP-bound sessions over both real transports.
@Suite("Hostile DPoP nonces and challenges: never more than one retry, never a header injected")
struct DPoPHostileNonceTests {
    typealias RFC = RFC9449Examples
    typealias Fixtures = DPoPWireFixtures

    static func sending(_ reply: @escaping @Sendable (Int) -> TestTransport.Reply,
                        nonces: DPoPNonces = DPoPNonces()) async throws -> (TestTransport, NetworkError?) {
        let count = TestMutex(0)
        let transport = TestTransport { _ in reply(count.withLock { value -> Int in value += 1; return value }) }
        let server = try Fixtures.server(transport: transport, proofing: Fixtures.proofing(nonces: nonces), everyRequest: true)
        do {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
            return (transport, nil)
        } catch {
            return (transport, error)
        }
    }

    static func challenge(nonce: String?, authenticate: String = #"DPoP error="use_dpop_nonce""#) -> TestTransport.Reply {
        var headers = ["WWW-Authenticate": authenticate]
        headers["DPoP-Nonce"] = nonce
        return TestTransport.Reply(status: 401, headers: headers)
    }

    @Test("a challenge whose nonce a header cannot carry is not retried, and the nonce is not kept", arguments: [
        "n\r\nX-Injected: 1", "n\u{0}", "n\u{7F}", "\u{1B}]52;c;bad\u{7}", "a b", "\"quoted\"", "é",
        String(repeating: "n", count: 10_240),
        "n-1, n-2",   // a repeated header, as transports join them
    ])
    func unusableNonce(nonce: String) async throws {
        let nonces = DPoPNonces()
        let (transport, error) = try await Self.sending({ _ in Self.challenge(nonce: nonce) }, nonces: nonces)
        #expect(transport.requests.count == 1)
        #expect(error?.statusCode == 401)
        #expect(nonces.count == 0)
        for request in transport.requests {
            #expect(request.headerFields.values.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        }
    }

    @Test("the same nonce header twice, in two spellings of its name: one retry, with one of them")
    func twoSpellings() async throws {
        let (transport, _) = try await Self.sending { _ in
            TestTransport.Reply(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#,
                                                       "DPoP-Nonce": "n-upper", "dpop-nonce": "n-lower"])
        }
        try #require(transport.requests.count == 2)
        let retried = Fixtures.payload(of: transport.requests[1])?["nonce"] as? String
        #expect(retried == "n-upper" || retried == "n-lower")
    }

    @Test("a challenge without a nonce is not retried: there is nothing new to prove with")
    func noNonce() async throws {
        let (transport, error) = try await Self.sending { _ in Self.challenge(nonce: nil) }
        #expect(transport.requests.count == 1)
        #expect(error?.isDPoPNonceChallenge == true)
    }

    @Test("a server that challenges every answer, each time with a new nonce, gets exactly two requests")
    func challengedForever() async throws {
        let (transport, error) = try await Self.sending { index in Self.challenge(nonce: "n-\(index)") }
        #expect(transport.requests.count == 2)
        #expect(error?.isDPoPNonceChallenge == true)
        #expect(transport.requests.map { Fixtures.payload(of: $0)?["nonce"] as? String } == [nil, "n-1"])
    }

    @Test("a malformed DPoP challenge is read without a crash and answered at most once", arguments: [
        #"DPoP error="use_dpop_nonce"#, #"DPoP error=use_dpop_nonce"#, #"DPoP ,,, error="use_dpop_nonce",,"#,
        #"DPoP error="use_dpop_nonce", error="invalid_token""#, #"DPoP error=="#, "DPoP", "DPoP ", #"DPoP """"#,
        "DPoP error=\"use_dpop_nonce\\", #"DPoP error="use\"dpop_nonce""#, String(repeating: "DPoP a=b, ", count: 2_000),
        "DPoP error=\"" + String(repeating: "x", count: 10_240) + "\"",
    ])
    func malformedChallenge(header: String) async throws {
        let (transport, _) = try await Self.sending { _ in Self.challenge(nonce: "n-ok", authenticate: header) }
        #expect((1...2).contains(transport.requests.count))
    }

    @Test("what is not a DPoP nonce challenge is not retried", arguments: [
        #"DPoPerror="use_dpop_nonce""#, #"DPoP error="use_dpop_nonc""#, #"DPoP error_description="use_dpop_nonce""#,
        #"Bearer realm="x", error_description="DPoP error=use_dpop_nonce""#,
    ])
    func notAChallenge(header: String) async throws {
        let (transport, error) = try await Self.sending { _ in Self.challenge(nonce: "n-ok", authenticate: header) }
        #expect(transport.requests.count == 1)
        #expect(error?.isDPoPNonceChallenge == false)
    }

    @Test("a 403 or a 500 with use_dpop_nonce and a nonce is not a challenge", arguments: [403, 500])
    func otherStatuses(status: Int) async throws {
        let (transport, error) = try await Self.sending { _ in
            TestTransport.Reply(status: status, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-ok"])
        }
        #expect(transport.requests.count == 1)
        #expect(error?.isDPoPNonceChallenge == false)
    }

    @Test("no token, proof, ath or nonce in any description, mirror or error, even when the server echoes them")
    func noSecretShown() async throws {
        let nonce = "n0nce-42"
        let transport = TestTransport { request in
            let said = [request.headerFields["DPoP"], request.headerFields["Authorization"]].compactMap { $0 }.joined(separator: " ")
            return TestTransport.Reply(status: 401, headers: [
                "WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="got \#(said) \#(nonce)""#,
                "DPoP-Nonce": nonce,
            ], body: Data(#"{"error":{"code":"use_dpop_nonce","message":"\#(said) \#(nonce)"}}"#.utf8))
        }
        let proofing = Fixtures.proofing()
        let server = try Fixtures.server(transport: transport, proofing: proofing)
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(Fixtures.Resource.protectedResource, accessToken: Fixtures.boundToken)
        }
        let requests = transport.requests
        let proofs = requests.compactMap { $0.headerFields["DPoP"] }
        #expect(proofs.count == 2)
        #expect(error?.isDPoPNonceChallenge == true)
        var shown = [String(describing: error), String(reflecting: error), String(describing: requests),
                     String(describing: server), String(describing: proofing), String(describing: Fixtures.boundToken),
                     error?.serverMessage ?? "", error?.authenticateChallenge ?? ""]
        var dumped = ""
        dump(error, to: &dumped)
        dump(requests, to: &dumped)
        dump(server, to: &dumped)
        dump(proofing, to: &dumped)
        shown.append(dumped)
        let secrets = [RFC.accessToken.rawValue, RFC.ath, nonce] + proofs + proofs.flatMap { $0.split(separator: ".").map(String.init) }
        for text in shown {
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret.prefix(6))… shown")
            }
        }
    }
}
