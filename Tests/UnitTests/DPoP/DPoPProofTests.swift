import Foundation
@testable import NetworkService
import Testing

@Suite("DPoP proofs come out as RFC 9449 writes them")
struct DPoPProofTests {
    typealias RFC = RFC9449Examples

    static let tokenEndpoint = DPoPTarget(URL(string: "https://server.example.com/token")!)!
    static let resource = DPoPTarget(URL(string: "https://resource.example.org/protectedresource")!)!

    @Test("the token request's proof is Figure 2's, byte for byte")
    func tokenRequest() throws {
        let proof = DPoPProof(jti: "-BwC3ESc6acc2lTc", method: .post, target: Self.tokenEndpoint,
                              issuedAt: Date(timeIntervalSince1970: 1562262616))
        #expect(try proof.compact(signedBy: RecordedSigner(signatureOf: RFC.tokenRequestProof)) == RFC.tokenRequestProof)
    }

    @Test("the refresh request's proof is Figure 7's, byte for byte; iat is whole seconds, rounded down")
    func refreshRequest() throws {
        let proof = DPoPProof(jti: "-BwC3ESc6acc2lTc", method: .post, target: Self.tokenEndpoint,
                              issuedAt: Date(timeIntervalSince1970: 1562265296.999))
        #expect(try proof.compact(signedBy: RecordedSigner(signatureOf: RFC.refreshRequestProof)) == RFC.refreshRequestProof)
    }

    @Test("the resource request's proof, with ath, is Figure 14's, byte for byte")
    func resourceRequest() throws {
        let proof = DPoPProof(jti: "e1j3V_bKic8-LAEB", method: .get, target: Self.resource,
                              issuedAt: Date(timeIntervalSince1970: 1562262618), ath: DPoPProof.ath(of: RFC.accessToken))
        #expect(try proof.compact(signedBy: RecordedSigner(signatureOf: RFC.resourceRequestProof)) == RFC.resourceRequestProof)
    }

    @Test("a kept header gives the same proof as one made for each")
    func keptHeader() throws {
        let signer = RecordedSigner(signatureOf: RFC.tokenRequestProof)
        #expect(DPoPProof.header(for: signer) == RFC.header)
        let proof = DPoPProof(jti: "-BwC3ESc6acc2lTc", method: .post, target: Self.tokenEndpoint,
                              issuedAt: Date(timeIntervalSince1970: 1562262616))
        #expect(try proof.compact(header: RFC.header, signedBy: signer) == RFC.tokenRequestProof)
    }

    @Test("the proof after a nonce challenge carries the nonce last, as Figure 21's payload")
    func nonceInThePayload() throws {
        let proof = DPoPProof(jti: "-BwC3ESc6acc2lTc", method: .post, target: Self.tokenEndpoint,
                              issuedAt: Date(timeIntervalSince1970: 1562262616), nonce: RFC.nonce)
        #expect(proof.payload == RFC.figure21Payload)
        let compact = try proof.compact(signedBy: RecordedSigner(signatureOf: RFC.tokenRequestProof))
        #expect(RFC.payload(of: compact) == RFC.figure21Payload)
        #expect(compact.hasPrefix(RFC.header + "."))
    }

    @Test("with a token and a nonce, ath comes before nonce")
    func athAndNonce() {
        let proof = DPoPProof(jti: "e1j3V_bKic8-LAEB", method: .get, target: Self.resource,
                              issuedAt: Date(timeIntervalSince1970: 1562262618), ath: RFC.ath, nonce: "eyJ7S_zG.eyJbYu3.xQmBj-1")
        #expect(proof.payload == #"{"jti":"e1j3V_bKic8-LAEB","htm":"GET","htu":"https://resource.example.org/protectedresource","iat":1562262618,"ath":"fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo","nonce":"eyJ7S_zG.eyJbYu3.xQmBj-1"}"#)
    }

    @Test("the ath of Figure 13's token is the RFC's")
    func accessTokenHash() {
        #expect(DPoPProof.ath(of: RFC.accessToken) == RFC.ath)
    }

    @Test("thumbprints: RFC 9449's EC key, RFC 7638's RSA key and RFC 8037's OKP key")
    func thumbprints() {
        #expect(RFC.key.thumbprint == RFC.thumbprint)
        #expect(RFC.rsaKey.thumbprint == RFC.rsaThumbprint)
        let okp = DPoPPublicKey.okp(crv: "Ed25519", x: RFC.bytes(RFC.ed25519PublicKey))
        #expect(okp.thumbprint == RFC.ed25519Thumbprint)
        #expect(okp.thumbprintInput == #"{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)
        #expect(okp.jwk == #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)
    }

    @Test("keys are equal when their members are; a key's description names its type, curve and thumbprint")
    func keyValues() {
        let same = DPoPPublicKey.ec(crv: "P-256", x: RFC.bytes("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"),
                                    y: RFC.bytes("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))
        #expect(same == RFC.key)
        #expect(DPoPPublicKey.okp(crv: "Ed25519", x: RFC.bytes(RFC.ed25519PublicKey)) != RFC.key)
        #expect(RFC.key.description == "DPoPPublicKey(EC P-256, thumbprint \(RFC.thumbprint))")
    }

    @Test("the htu is the URL normalised: scheme and host lower-cased, default port dropped, path as sent, no query, fragment or user info",
          arguments: [
              ("https://server.example.com/token", "https://server.example.com/token"),
              ("HTTPS://Server.Example.COM/Token", "https://server.example.com/Token"),
              ("https://server.example.com:443/token", "https://server.example.com/token"),
              ("http://server.example.com:80/token", "http://server.example.com/token"),
              ("https://server.example.com:8443/token", "https://server.example.com:8443/token"),
              ("http://127.0.0.1:443/token", "http://127.0.0.1:443/token"),
              ("https://server.example.com", "https://server.example.com/"),
              ("https://server.example.com?x=1", "https://server.example.com/"),
              ("https://auth.example.com/o/token/", "https://auth.example.com/o/token/"),
              ("https://api.example.com/v1/posts/a%20b/c%2Fd", "https://api.example.com/v1/posts/a%20b/c%2Fd"),
              ("http://[::1]:8080/token", "http://[::1]:8080/token"),
              ("https://[::1]/token", "https://[::1]/token"),
              ("https://resource.example.org/protectedresource?page=2&q=a#top", "https://resource.example.org/protectedresource"),
              ("https://user:secret@server.example.com/token", "https://server.example.com/token"),
          ])
    func htu(url: String, htu: String) throws {
        let target = try #require(DPoPTarget(URL(string: url)!), "\(url)")
        #expect(target.htu == htu)
        #expect(target.description == htu)
    }

    @Test("a URL that is not http or https, or has no host, names no target", arguments: [
        "ftp://server.example.com/token", "file:///etc/passwd", "urn:ietf:rfc:9449", "/token",
    ])
    func noTarget(url: String) {
        #expect(DPoPTarget(URL(string: url)!) == nil)
    }

    @Test("every proof gets a new jti: 16 random bytes, base64url")
    func freshJTI() throws {
        let proofs = (0..<200).map { _ in
            DPoPProof(method: .get, target: Self.resource, issuedAt: Date(timeIntervalSince1970: 1562262618))
        }
        #expect(Set(proofs.map(\.jti)).count == proofs.count)
        for proof in proofs {
            #expect(proof.jti.count == 22)
            #expect(Base64URL.decode(proof.jti)?.count == 16)
        }
        let signer = RecordedSigner(signatureOf: RFC.resourceRequestProof)
        let first = try proofs[0].compact(signedBy: signer)
        let second = try proofs[1].compact(signedBy: signer)
        #expect(first != second)
        #expect(RFC.payload(of: first).hasPrefix(#"{"jti":""# + proofs[0].jti + #"","htm":"GET","#))
    }

    @Test("a string with a quote, a backslash or a control character stays one JSON string")
    func jsonEscaping() {
        var json = ""
        JSONStringLiteral.append("a\"b\\c\u{1}d/é", to: &json)
        #expect(json == #""a\"b\\c\u0001d/é""#)
        let proof = DPoPProof(jti: "j", method: .get, target: Self.resource, issuedAt: Date(timeIntervalSince1970: 0), nonce: "n\"x")
        #expect(proof.payload.hasSuffix(#","nonce":"n\"x"}"#))
    }

    @Test("a signer that cannot sign makes no proof, and its error says why")
    func signerFailure() {
        let proof = DPoPProof(method: .post, target: Self.tokenEndpoint, issuedAt: Date())
        #expect {
            try proof.compact(signedBy: FailingSigner())
        } throws: { error in
            let error = error as? DPoPSigningError
            return error?.reason == "the key is not available" && error?.underlying is FailingSigner.KeyGone
                && error?.description.hasPrefix("could not sign a DPoP proof: the key is not available (") == true
                && error?.errorDescription == error?.description
        }
    }

    @Test("no description or mirror shows a proof, its jti, ath or nonce, or a private key")
    func nothingSecretPrinted() throws {
        let proof = DPoPProof(method: .get, target: Self.resource, issuedAt: Date(), ath: RFC.ath, nonce: RFC.nonce)
        let compact = try proof.compact(signedBy: RecordedSigner(signatureOf: RFC.resourceRequestProof))
        let signature = String(RFC.resourceRequestProof.split(separator: ".")[2])
        var texts = [String(describing: proof), String(reflecting: proof), "\(proof)"]
        var dumped = ""
        dump(proof, to: &dumped)
        texts.append(dumped)
        #expect(String(describing: proof) == "DPoPProof(GET https://resource.example.org/protectedresource)")
        for value in [RFC.key, DPoPPublicKey.okp(crv: "Ed25519", x: RFC.bytes(RFC.ed25519PublicKey))] as [DPoPPublicKey] {
            texts += [String(describing: value), String(reflecting: value)]
        }
        let error = DPoPSigningError("the key is not available", underlying: FailingSigner.KeyGone())
        var dumpedError = ""
        dump(error, to: &dumpedError)
        texts += [String(describing: error), String(reflecting: error), dumpedError]
        for text in texts {
            for secret in [compact, signature, proof.jti, RFC.ath, RFC.nonce, RFC.ed25519Seed] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}

@Suite("Base64url without padding (RFC 4648 §5)")
struct Base64URLTests {
    @Test("RFC 4648's vectors, and the two characters base64url changes", arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func vectors(text: String, encoded: String) {
        #expect(Base64URL.encode(Array(text.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(text.utf8))
    }

    @Test("every byte value round-trips, as Foundation's base64 would write it")
    func roundTrip() {
        for count in 0..<70 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.decode(encoded) == bytes)
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test("padding, characters outside the alphabet and impossible lengths are refused", arguments: [
        "Zg==", "Zm9v+", "Zm9v/", "Zm 9v", "Z", "Zm9vY", "é",
    ])
    func refused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
