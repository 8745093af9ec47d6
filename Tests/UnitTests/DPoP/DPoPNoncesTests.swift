import Foundation
@testable import NetworkService
import Testing

@Suite("DPoP nonces: the latest per origin, bounded, and only values a header can carry")
struct DPoPNoncesTests {
    static let authorizationServer = "https://server.example.com:443"
    static let resourceServer = "https://resource.example.org:443"

    @Test("each origin keeps its own latest nonce (RFC 9449 §8.2: the next may come with any answer)")
    func latestPerOrigin() {
        let nonces = DPoPNonces()
        #expect(nonces.nonce(forOrigin: Self.authorizationServer) == nil)
        #expect(nonces.remember("eyJ7S_zG.eyJH0-Z.HX4w-7v", forOrigin: Self.authorizationServer))
        #expect(nonces.remember("resource-1", forOrigin: Self.resourceServer))
        #expect(nonces.remember("eyJ7S_zG.eyJbYu3.xQmBj-1", forOrigin: Self.authorizationServer))
        #expect(nonces.nonce(forOrigin: Self.authorizationServer) == "eyJ7S_zG.eyJbYu3.xQmBj-1")
        #expect(nonces.nonce(forOrigin: Self.resourceServer) == "resource-1")
        #expect(nonces.count == 2)
    }

    @Test("a response's DPoP-Nonce is kept, in any case of the header's name; a response without one changes nothing")
    func fromResponses() {
        let nonces = DPoPNonces()
        nonces.remember(from: HTTPResponse(statusCode: 200, headerFields: ["dpop-nonce": "eyJ7S_zG.eyJbYu3.xQmBj-1"]),
                        origin: Self.authorizationServer)
        nonces.remember(from: HTTPResponse(statusCode: 200), origin: Self.authorizationServer)
        #expect(nonces.nonce(forOrigin: Self.authorizationServer) == "eyJ7S_zG.eyJbYu3.xQmBj-1")
    }

    @Test("a value outside NQCHAR, empty or over 2048 bytes is dropped and the last good nonce stays", arguments: [
        "", " ", "a b", "a\"b", "a\\b", "a\r\nX-Injected: 1", "a\tb", "nonce\u{7F}", "nonce\u{0}", "é", "\u{202E}x",
        String(repeating: "n", count: 2_049),
    ])
    func unusableValuesDropped(value: String) {
        let nonces = DPoPNonces()
        nonces.remember("good", forOrigin: Self.resourceServer)
        #expect(!DPoPNonces.isUsable(value))
        #expect(!nonces.remember(value, forOrigin: Self.resourceServer))
        nonces.remember(from: HTTPResponse(statusCode: 401, headerFields: ["DPoP-Nonce": value]), origin: Self.resourceServer)
        #expect(nonces.nonce(forOrigin: Self.resourceServer) == "good")
    }

    @Test("every NQCHAR is usable: %x21, %x23-5B, %x5D-7E")
    func everyNQCHAR() {
        let all = String(String.UnicodeScalarView((0x21...0x7E).filter { $0 != 0x22 && $0 != 0x5C }.map { Unicode.Scalar(UInt8($0)) }))
        #expect(DPoPNonces.isUsable(all))
        #expect(DPoPNonces.isUsable(String(repeating: "n", count: 2_048)))
    }

    @Test("at most 64 origins are kept: a new one replaces the one updated longest ago")
    func bounded() {
        let nonces = DPoPNonces()
        for index in 0..<64 { nonces.remember("n\(index)", forOrigin: "https://rs\(index).example:443") }
        #expect(nonces.count == 64)
        nonces.remember("again", forOrigin: "https://rs0.example:443")  // rs1 is now the oldest
        nonces.remember("new", forOrigin: "https://new.example:443")
        #expect(nonces.count == 64)
        #expect(nonces.nonce(forOrigin: "https://rs1.example:443") == nil)
        #expect(nonces.nonce(forOrigin: "https://rs0.example:443") == "again")
        #expect(nonces.nonce(forOrigin: "https://new.example:443") == "new")
        #expect(nonces.nonce(forOrigin: "https://rs63.example:443") == "n63")

        let small = DPoPNonces(capacity: 2)
        for origin in ["https://a:443", "https://b:443", "https://c:443"] { small.remember("x", forOrigin: origin) }
        #expect(small.count == 2 && small.nonce(forOrigin: "https://a:443") == nil)
    }

    @Test("many tasks updating and reading at once leave one nonce per origin")
    func concurrentUse() async {
        let nonces = DPoPNonces(capacity: 8)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<200 {
                        nonces.remember("n-\(task)-\(round)", forOrigin: "https://rs\(round % 12).example:443")
                        _ = nonces.nonce(forOrigin: "https://rs\(task % 12).example:443")
                    }
                }
            }
        }
        #expect(nonces.count == 8)
    }

    @Test("a nonce challenge is a 400 or 401 with use_dpop_nonce (body or DPoP challenge) and a usable DPoP-Nonce (Figures 20, 24)")
    func nonceChallenges() {
        let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"
        let figure24 = #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
        // Figure 20: the token endpoint, the code in the body.
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 400, headerFields: ["DPoP-Nonce": nonce]),
                                    errorCode: .useDPoPNonce) == nonce)
        // Figure 24: a resource, the code in the challenge.
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 401, headerFields: ["WWW-Authenticate": figure24, "DPoP-Nonce": nonce]),
                                    errorCode: nil) == nonce)
        // Not one: no nonce, an unusable nonce, another status, another code, a Bearer challenge.
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 400), errorCode: .useDPoPNonce) == nil)
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 400, headerFields: ["DPoP-Nonce": "a b"]),
                                    errorCode: .useDPoPNonce) == nil)
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 403, headerFields: ["WWW-Authenticate": figure24, "DPoP-Nonce": nonce]),
                                    errorCode: .useDPoPNonce) == nil)
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 400, headerFields: ["DPoP-Nonce": nonce]),
                                    errorCode: .invalidDPoPProof) == nil)
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 401, headerFields: [
            "WWW-Authenticate": #"Bearer error="use_dpop_nonce""#, "DPoP-Nonce": nonce]), errorCode: nil) == nil)
        #expect(DPoPChallenge.nonce(challengedBy: HTTPResponse(statusCode: 401, headerFields: [
            "WWW-Authenticate": #"DPoP error="invalid_dpop_proof""#, "DPoP-Nonce": nonce]), errorCode: nil) == nil)
    }
}
