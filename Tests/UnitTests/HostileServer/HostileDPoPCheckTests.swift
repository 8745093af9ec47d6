@testable import AppSDKTesting
import Foundation
@testable import HostileServerKit
import NetworkService
import Testing

/// The kit's DPoP checks (``HostileInvariant/provesPossessionRightly`` and the DPoP secrets)
/// catch what they are for: each is shown breaking on a made-up exchange, and a DPoP mode's
/// run is shown to prove over the wire.
@Suite("The hostile-server kit's DPoP checks")
struct HostileDPoPCheckTests {
    static let host = "127.0.0.1:4000"
    static let apiTarget = "/i-kit/api/me"
    static let token = "AT.dp/4k+Pn="

    /// A proof as the SDK writes one, unsigned (the kit reads proofs without checking signatures).
    static func proof(htm: String = "GET", htu: String = "http://\(host)\(apiTarget)", nonce: String? = nil,
                      x: String = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", ath: String? = "ath-value") -> String {
        let header = #"{"typ":"dpop+jwt","alg":"EdDSA","jwk":{"kty":"OKP","crv":"Ed25519","x":"\#(x)"}}"#
        var payload: [String: String] = ["jti": UUID().uuidString, "htm": htm, "htu": htu]
        payload["nonce"] = nonce
        payload["ath"] = ath
        let json = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])
        return HostileProof.base64URL(Array(header.utf8)) + "." + HostileProof.base64URL(Array(json)) + ".c2lnbmF0dXJlLW9mLTY0LWJ5dGVz"
    }

    static func exchange(_ proof: String?, reply: LoopbackHTTPServer.Reply = .json(200, "{}"),
                         route: HostileProvider.Route = .api, target: String = apiTarget) -> HostileProvider.Exchange {
        var headers = ["Host": host, "Authorization": "DPoP " + token]
        headers["DPoP"] = proof
        return HostileProvider.Exchange(route: route, request: LoopbackHTTPServer.Request(method: "GET", target: target, headers: headers,
                                                                                           body: Data()),
                                        reply: reply)
    }

    static func challenge(_ nonce: String) -> LoopbackHTTPServer.Reply {
        HostileDPoPAnswers.challenge(at: .api, nonce: nonce)
    }

    /// The violations of an API-call DPoP mode's invariants over `exchanges`.
    static func violations(_ exchanges: [HostileProvider.Exchange], trap: [LoopbackHTTPServer.Request] = [],
                           outputs: [String] = []) -> [HostileViolation] {
        let mode = HostileMode.dpop.first { $0.operation == .apiCall && $0.name.contains("a new nonce challenge on every answer") }!
        var outcome = HostileOutcome()
        outcome.finished = true
        outcome.exchanges = exchanges
        outcome.trapRequests = trap
        outcome.outputs = outputs.map { HostileOutput(source: "an output", text: $0) }
        return HostileChecks(mode: mode, outcome: outcome, bound: .seconds(4), maximumResponseBytes: 1_000).violations()
    }

    static func proving(_ violations: [HostileViolation]) -> [String] {
        violations.filter { $0.invariant == .provesPossessionRightly }.map(\.message)
    }

    @Test("a request sent once more for a nonce challenge is fine; a third time, after a second challenge, breaks the invariant")
    func nonceRetries() {
        let once = [Self.exchange(Self.proof(), reply: Self.challenge("Nn.1")), Self.exchange(Self.proof(nonce: "Nn.1"), reply: Self.challenge("Nn.2"))]
        #expect(Self.proving(Self.violations(once)).isEmpty)
        let twice = once + [Self.exchange(Self.proof(nonce: "Nn.2"))]
        #expect(Self.proving(Self.violations(twice)).first?.contains("sent again after a second nonce challenge") == true)
    }

    @Test("a proof naming another URL or method, carrying a nonce no header can carry, or signed by a second key breaks the invariant")
    func proofContents() {
        #expect(Self.proving(Self.violations([Self.exchange(Self.proof(htu: "http://elsewhere.example/me"))])).first?.contains("htu") == true)
        #expect(Self.proving(Self.violations([Self.exchange(Self.proof(htm: "POST"))])).first?.contains("htm") == true)
        #expect(Self.proving(Self.violations([Self.exchange(Self.proof(nonce: "Nn.\r\nX: 1"))])).first?.contains("nonce") == true)
        let twoKeys = [Self.exchange(Self.proof()), Self.exchange(Self.proof(x: "AAAAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"))]
        #expect(Self.proving(Self.violations(twoKeys)).first?.contains("2 keys") == true)
        #expect(Self.proving(Self.violations([Self.exchange(nil)])).first?.contains("without a proof") == true)
    }

    @Test("a proof or DPoP token at the other origin breaks the invariant")
    func proofElsewhere() {
        let trapped = LoopbackHTTPServer.Request(method: "GET", target: "/me", headers: ["DPoP": Self.proof()], body: Data())
        #expect(Self.proving(Self.violations([Self.exchange(Self.proof())], trap: [trapped])).first?.contains("other origin") == true)
    }

    @Test("a proof, its signature, a nonce the server gave and the DPoP token are secrets no output may hold")
    func dpopSecrets() {
        let proof = Self.proof()
        let exchanges = [Self.exchange(proof, reply: Self.challenge("Nn.server-given"))]
        for shown in [proof, "c2lnbmF0dXJlLW9mLTY0LWJ5dGVz", "Nn.server-given", Self.token] {
            let found = Self.violations(exchanges, outputs: ["failed: \(shown)"]).filter { $0.invariant == .noSecretInOutput }
            #expect(found.count == 1, "\(shown.prefix(6))… not found")
            #expect(found.allSatisfy { !$0.message.contains(shown) }, "the report repeats it")
        }
        #expect(Self.violations(exchanges, outputs: ["GET /me failed: HTTP 401 use_dpop_nonce"]).filter { $0.invariant == .noSecretInOutput }.isEmpty)
    }

    @Test("a DPoP mode's run proves over the wire: every API request carries a proof and Authorization: DPoP, and a challenge loop gets two")
    func runProves() async throws {
        let mode = HostileMode.dpop.first { $0.operation == .apiCall && $0.name.contains("a new nonce challenge on every answer") }!
        let run = try HostileRun(mode: mode, transport: URLSessionTransport(timeout: 5))
        defer { run.provider.stop() }
        let outcome = await run.outcome(givingUpAfter: .seconds(20))
        let api = outcome.exchanges.filter { $0.route == .api }
        #expect(api.count == 2)
        #expect(api.allSatisfy { $0.request.header("DPoP") != nil && $0.request.header("Authorization")?.hasPrefix("DPoP ") == true })
        #expect(HostileProof(of: api[1].request)?.nonce == HostileReplyFacts(api[0].reply).challengeNonce)
        #expect(outcome.keysMade.count == 1 && outcome.storedAfter?.dpopKey == outcome.keysMade.first)
        #expect(HostileChecks(mode: mode, outcome: outcome, bound: .seconds(20), maximumResponseBytes: 1_000_000).violations().isEmpty)
    }
}
