import Crypto
import Foundation
import Testing
@testable import AppServerCore

/// The reference server's DPoP proof checks (RFC 9449 §4.3), with RFC 9449's and RFC 8037's
/// published examples and one refused proof per check. No server, no clock: the time is given.
@Suite("DPoP proofs the server accepts and refuses")
struct DPoPProofVerifierTests {
    // RFC 9449 Figure 4: a token request's proof, made with the RFC's P-256 key at 1562262616.
    static let rfcHeader = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19"
    static let rfcTokenProof = rfcHeader
        + ".eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ"
        + ".2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    static let rfcThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

    static func verifier(_ policy: DPoPProofVerifier.Policy = .init(), nonces: DPoPNonceIssuer? = nil,
                         replays: DPoPReplayCache = DPoPReplayCache()) -> DPoPProofVerifier {
        DPoPProofVerifier(policy: policy, nonces: nonces, replays: replays)
    }

    /// Signs a proof with `key` (a fresh P-256 key unless given), `header` and `claims` laid
    /// over the usual ones; a `nil` value removes the member.
    static func proof(key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), header: [String: Any?] = [:],
                      claims: [String: Any?] = [:], at now: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws -> String {
        let raw = key.publicKey.rawRepresentation
        var fullHeader: [String: Any] = ["typ": "dpop+jwt", "alg": "ES256",
                                         "jwk": ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)),
                                                 "y": Base64URL.encode(raw.suffix(32))]]
        var fullClaims: [String: Any] = ["jti": UUID().uuidString, "htm": "POST", "htu": "https://server.example.com/token",
                                         "iat": Int(now.timeIntervalSince1970)]
        for (name, value) in header { fullHeader[name] = value }
        for (name, value) in claims { fullClaims[name] = value }
        let input = try encode(fullHeader) + "." + encode(fullClaims)
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }

    static func encode(_ object: [String: Any]) throws -> String {
        Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func refusal(_ proof: String, method: String = "POST", target: String = "https://server.example.com/token",
                        accessToken: String? = nil, verifier: DPoPProofVerifier = verifier()) -> DPoPRefusal? {
        do {
            _ = try verifier.verify(fieldValues: [proof], method: method, target: target, accessToken: accessToken, now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test("RFC 9449's token-request proof (Figure 4) is accepted as published, and its key's thumbprint is the RFC's")
    func rfcTokenRequestProof() throws {
        let proof = try Self.verifier().verify(fieldValues: [Self.rfcTokenProof], method: "POST", target: "https://server.example.com/token",
                                               accessToken: nil, now: Date(timeIntervalSince1970: 1_562_262_617))
        #expect(proof.thumbprint == Self.rfcThumbprint)
        #expect(proof.identifier == "-BwC3ESc6acc2lTc")
    }

    @Test("RFC 9449's resource proof (Figure 14) is accepted with its access token, and refused with another token")
    func rfcResourceProof() throws {
        let claims = #"{"jti":"e1j3V_bKic8-LAEB","htm":"GET","htu":"https://resource.example.org/protectedresource","iat":1562262618,"ath":"fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"}"#
        let proof = Self.rfcHeader + "." + Base64URL.encode(Data(claims.utf8))
            + ".2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"
        let at = Date(timeIntervalSince1970: 1_562_262_619)
        let target = "https://resource.example.org/protectedresource?x=1"
        let accepted = try Self.verifier().verify(fieldValues: [proof], method: "GET", target: target,
                                                  accessToken: "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU", now: at)
        #expect(accepted.thumbprint == Self.rfcThumbprint)
        #expect(throws: DPoPRefusal.accessTokenHashMismatch) {
            try Self.verifier().verify(fieldValues: [proof], method: "GET", target: target, accessToken: "another-token", now: at)
        }
    }

    @Test("an EdDSA proof verifies, and RFC 8037's key has RFC 8037's thumbprint")
    func edDSA() throws {
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: #require(Base64URL.decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")))
        let x = Base64URL.encode(key.publicKey.rawRepresentation)
        #expect(x == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
        let header: [String: Any] = ["typ": "dpop+jwt", "alg": "EdDSA", "jwk": ["kty": "OKP", "crv": "Ed25519", "x": x]]
        let claims: [String: Any] = ["jti": "ed-1", "htm": "POST", "htu": "https://server.example.com/token", "iat": 1_800_000_000]
        let input = try Self.encode(header) + "." + Self.encode(claims)
        let proof = input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
        let accepted = try Self.verifier().verify(fieldValues: [proof], method: "POST", target: "https://server.example.com/token",
                                                  accessToken: nil, now: Self.now)
        #expect(accepted.thumbprint == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        #expect(Self.refusal(proof, verifier: Self.verifier(.init(algorithms: [.es256]))) == .algorithmNotAllowed)
    }

    /// Bad proofs, one or more per check: a name, header and claim changes, the refusal.
    /// (A function, not a stored property: its values are not Sendable.)
    static func badProofs() -> [(String, [String: Any?], [String: Any?], DPoPRefusal)] { [
        ("no typ", ["typ": nil], [:], DPoPRefusal.wrongType),
        ("typ JWT", ["typ": "JWT"], [:], .wrongType),
        ("alg none", ["alg": "none"], [:], .algorithmNotAllowed),
        ("alg HS256", ["alg": "HS256"], [:], .algorithmNotAllowed),
        ("EdDSA over a P-256 key", ["alg": "EdDSA"], [:], .unusableKey),
        ("a private key in jwk", ["jwk": ["kty": "EC", "crv": "P-256", "x": String(repeating: "A", count: 43),
                                          "y": String(repeating: "A", count: 43), "d": "AAAA"]], [:], .unusableKey),
        ("no jwk", ["jwk": nil], [:], .unusableKey),
        ("jwk not an object", ["jwk": "key"], [:], .unusableKey),
        ("another method", [:], ["htm": "GET"], .methodMismatch),
        ("another URI", [:], ["htu": "https://server.example.com/other"], .targetMismatch),
        ("another host", [:], ["htu": "https://attacker.example/token"], .targetMismatch),
        ("htu not a URI", [:], ["htu": "not a uri"], .targetMismatch),
        ("htu with user information", [:], ["htu": "https://user@server.example.com/token"], .targetMismatch),
        ("iat 61 s old", [:], ["iat": 1_800_000_000 - 61], .issuedAtOutsideWindow),
        ("iat 6 s ahead", [:], ["iat": 1_800_000_006], .issuedAtOutsideWindow),
        ("iat absurdly large", [:], ["iat": 1e300], .issuedAtOutsideWindow),
        ("iat a string", [:], ["iat": "1800000000"], .malformed("iat")),
        ("iat missing", [:], ["iat": nil], .malformed("iat")),
        ("jti missing", [:], ["jti": nil], .badIdentifier),
        ("jti empty", [:], ["jti": ""], .badIdentifier),
        ("jti of 65 characters", [:], ["jti": String(repeating: "j", count: 65)], .badIdentifier),
        ("jti with a control character", [:], ["jti": "a\u{1b}[2Jb"], .badIdentifier),
    ] }

    @Test("each check refuses its own kind of bad proof", arguments: 0..<22)
    func refusedProof(_ index: Int) throws {
        let (name, header, claims, refusal) = Self.badProofs()[index]
        #expect(Self.refusal(try Self.proof(header: header, claims: claims)) == refusal, "\(name)")
    }

    @Test("the table of bad proofs is run whole")
    func badProofTableIsRunWhole() {
        #expect(Self.badProofs().count == 22)
    }

    @Test("the same htu in another spelling is the same target: case of scheme and host, the default port, a query")
    func targetNormalisation() throws {
        for htu in ["HTTPS://Server.Example.COM/token", "https://server.example.com:443/token", "https://server.example.com/token?a=b#f"] {
            #expect(Self.refusal(try Self.proof(claims: ["htu": htu])) == nil, "\(htu)")
        }
        #expect(Self.refusal(try Self.proof(claims: ["htu": "https://server.example.com:8443/token"])) == .targetMismatch)
        #expect(Self.refusal(try Self.proof(claims: ["htu": "http://server.example.com/token"])) == .targetMismatch)
        #expect(Self.refusal(try Self.proof(claims: ["htu": "https://server.example.com/TOKEN"])) == .targetMismatch)
    }

    @Test("a signature by another key, a changed claim or a cut signature is refused")
    func signatures() throws {
        let proof = try Self.proof()
        let parts = proof.split(separator: ".").map(String.init)
        let other = try Self.proof().split(separator: ".").map(String.init)
        #expect(Self.refusal(parts[0] + "." + parts[1] + "." + other[2]) == .badSignature)
        #expect(Self.refusal(parts[0] + "." + other[1] + "." + parts[2]) == .badSignature)
        #expect(Self.refusal(parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(4))) == .badSignature)
        #expect(Self.refusal(parts[0] + "." + parts[1] + ".") == .badSignature)
    }

    @Test("what is not a compact JWS is refused as malformed, naming the part")
    func malformed() throws {
        #expect(Self.refusal("") == .malformed("compact serialization"))
        #expect(Self.refusal("a.b") == .malformed("compact serialization"))
        #expect(Self.refusal("a.b.c.d.e") == .malformed("compact serialization"))
        #expect(Self.refusal("!!!.e30.AA") == .malformed("header"))
        #expect(Self.refusal(Base64URL.encode(Data("[1]".utf8)) + ".e30.AA") == .malformed("header"))
        #expect(Self.refusal("e30.%%%.AA") == .malformed("claims"))
        #expect(Self.refusal("e30.e30.A+/=") == .malformed("signature"))
        #expect(Self.refusal(String(repeating: "A", count: 5_000)) == .malformed("size"))
    }

    @Test("no DPoP field, or two, is refused")
    func fieldCount() throws {
        let verifier = Self.verifier()
        #expect(throws: DPoPRefusal.missingProof) {
            try verifier.verify(fieldValues: [], method: "POST", target: "https://server.example.com/token", accessToken: nil, now: Self.now)
        }
        let proof = try Self.proof()
        #expect(throws: DPoPRefusal.severalProofs) {
            try verifier.verify(fieldValues: [proof, proof], method: "POST", target: "https://server.example.com/token",
                                accessToken: nil, now: Self.now)
        }
    }

    @Test("a proof presented twice is refused the second time; one refused for another reason leaves no entry")
    func replay() throws {
        let replays = DPoPReplayCache()
        let verifier = Self.verifier(replays: replays)
        let proof = try Self.proof()
        #expect(Self.refusal(proof, verifier: verifier) == nil)
        #expect(Self.refusal(proof, verifier: verifier) == .replayed)
        #expect(Self.refusal(try Self.proof(claims: ["htm": "GET"]), verifier: verifier) == .methodMismatch)
        #expect(replays.count == 1)
    }

    @Test("resource requests need ath: a proof without it is refused")
    func athRequired() throws {
        #expect(Self.refusal(try Self.proof(claims: ["htm": "GET"]), method: "GET", accessToken: "token") == .accessTokenHashMismatch)
    }

    @Test("with nonces required: none, a forged one or one two slots old asks for a nonce; the current and the previous slot's are accepted")
    func nonces() throws {
        let issuer = DPoPNonceIssuer(secret: Data(repeating: 7, count: 32), lifetime: 60)
        var policy = DPoPProofVerifier.Policy()
        policy.requiresNonce = true
        let verifier = Self.verifier(policy, nonces: issuer)
        #expect(Self.refusal(try Self.proof(), verifier: verifier) == .nonceRequired)
        #expect(Self.refusal(try Self.proof(claims: ["nonce": "forged"]), verifier: verifier) == .nonceRequired)
        #expect(Self.refusal(try Self.proof(claims: ["nonce": issuer.current(at: Self.now)]), verifier: verifier) == nil)
        #expect(Self.refusal(try Self.proof(claims: ["nonce": issuer.current(at: Self.now.addingTimeInterval(-60))]), verifier: verifier) == nil)
        #expect(Self.refusal(try Self.proof(claims: ["nonce": issuer.current(at: Self.now.addingTimeInterval(-120))]), verifier: verifier)
                == .nonceRequired)
        #expect(DPoPRefusal.nonceRequired.errorCode == "use_dpop_nonce")
        #expect(DPoPRefusal.badSignature.errorCode == "invalid_dpop_proof")
    }

    @Test("nonces from another secret are not accepted, and a nonce changes from slot to slot")
    func nonceSecrets() {
        let one = DPoPNonceIssuer(secret: Data(repeating: 1, count: 32), lifetime: 60)
        let two = DPoPNonceIssuer(secret: Data(repeating: 2, count: 32), lifetime: 60)
        #expect(!two.accepts(one.current(at: Self.now), at: Self.now))
        #expect(one.current(at: Self.now) != one.current(at: Self.now.addingTimeInterval(60)))
        #expect(one.current(at: Self.now).count == 43)
    }

    @Test("a full replay cache refuses new proofs until its entries expire, and never forgets a live one")
    func fullReplayCache() throws {
        let replays = DPoPReplayCache(capacity: 2)
        try replays.record(jti: "a", target: "t", expiry: Self.now.addingTimeInterval(60), now: Self.now)
        try replays.record(jti: "b", target: "t", expiry: Self.now.addingTimeInterval(60), now: Self.now)
        #expect(throws: DPoPRefusal.replayCacheFull) {
            try replays.record(jti: "c", target: "t", expiry: Self.now.addingTimeInterval(60), now: Self.now)
        }
        #expect(throws: DPoPRefusal.replayed) {
            try replays.record(jti: "a", target: "t", expiry: Self.now.addingTimeInterval(60), now: Self.now.addingTimeInterval(1))
        }
        let later = Self.now.addingTimeInterval(61)
        try replays.record(jti: "c", target: "t", expiry: later.addingTimeInterval(60), now: later)
        try replays.record(jti: "a", target: "t", expiry: later.addingTimeInterval(60), now: later)
        #expect(replays.count == 2)
        // The same jti for another target is another proof.
        let cache = DPoPReplayCache()
        try cache.record(jti: "x", target: "https://a.example/", expiry: later, now: Self.now)
        try cache.record(jti: "x", target: "https://b.example/", expiry: later, now: Self.now)
    }
}
