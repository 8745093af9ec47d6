import Foundation
@testable import NetworkService
import Testing

@Suite("DPoP challenges and codes (RFC 9449 §7.1, §8, §9)")
struct DPoPChallengeTests {
    /// RFC 9449 Figure 24.
    static let figure24 = #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#

    @Test("a DPoP challenge's parameters read as the RFC writes them (Figure 24)")
    func figure24Parameters() {
        #expect(DPoPChallenge.parameters(of: Self.figure24)
                == ["error": "use_dpop_nonce", "error_description": "Resource server requires nonce in DPoP proof"])
        #expect(DPoPChallenge.hasDPoPChallenge(Self.figure24))
    }

    @Test("the DPoP scheme is found in any case and anywhere in a list; Bearer's parameters stay Bearer's")
    func schemesInLists() {
        let list = #"Bearer realm="api", error="invalid_token", dpop algs="ES256 EdDSA", error="invalid_dpop_proof""#
        #expect(DPoPChallenge.parameters(of: list) == ["algs": "ES256 EdDSA", "error": "invalid_dpop_proof"])
        #expect(BearerChallenge.parameters(of: list) == ["realm": "api", "error": "invalid_token"])
        #expect(DPoPChallenge.parameters(of: #"Bearer, DPoP algs="ES256""#) == ["algs": "ES256"])
        #expect(DPoPChallenge.parameters(of: "DPoP") == [:])
    }

    @Test("a header without a DPoP challenge has none, however DPoP appears in it", arguments: [
        #"Bearer error="invalid_token""#,
        #"Bearer error_description="DPoP error=x""#,
        #"DPoPx error="use_dpop_nonce""#,
        #"Basic realm="DPoP""#,
        "dpop=1",
        "",
    ])
    func noDPoPChallenge(header: String) {
        #expect(DPoPChallenge.parameters(of: header) == nil)
        #expect(!DPoPChallenge.hasDPoPChallenge(header))
    }

    @Test("Bearer challenges read as before: a DPoP challenge is not a Bearer one")
    func bearerUnchanged() {
        #expect(BearerChallenge.parameters(of: Self.figure24) == nil)
        #expect(!BearerChallenge.hasBearerChallenge(Self.figure24))
        let bearer = #"Bearer realm="api", error="invalid_token", error_description="a \"quoted\" word""#
        #expect(BearerChallenge.parameters(of: bearer)
                == ["realm": "api", "error": "invalid_token", "error_description": #"a "quoted" word"#])
        let response = HTTPResponse(statusCode: 401, headerFields: ["WWW-Authenticate": Self.figure24])
        #expect(ServerErrorFormat.bearerChallenge.decode(response, Data()) == nil)
    }

    @Test("use_dpop_nonce and invalid_dpop_proof are known codes and decode as themselves")
    func codes() throws {
        #expect(ServerErrorCode.useDPoPNonce.rawValue == "use_dpop_nonce")
        #expect(ServerErrorCode.invalidDPoPProof.rawValue == "invalid_dpop_proof")
        let decoded = try JSONDecoder().decode([ServerErrorCode].self, from: Data(#"["use_dpop_nonce","invalid_dpop_proof"]"#.utf8))
        #expect(decoded == [.useDPoPNonce, .invalidDPoPProof])
        let body = Data(#"{"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}"#.utf8)
        #expect(ServerErrorFormat.oauth2.decode(HTTPResponse(statusCode: 400), body)?.code == .useDPoPNonce)
    }

    @Test("the DPoP header is sensitive in any case; DPoP-Nonce is not a credential")
    func sensitiveHeader() {
        for name in ["DPoP", "dpop", "DPOP"] { #expect(Redaction.isSensitiveHeader(name), "\(name)") }
        #expect(!Redaction.isSensitiveHeader("DPoP-Nonce"))
    }
}
