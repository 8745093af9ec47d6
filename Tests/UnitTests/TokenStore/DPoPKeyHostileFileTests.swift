import Foundation
import NetworkService
import Testing
import TokenStore

/// Damaged or hostile version 2 files: each is refused with a typed error naming the field,
/// never its value, and the file is left exactly as it was (nothing is lost or overwritten).
@Suite("A damaged DPoP key in a store file is refused clearly and left in place")
struct DPoPKeyHostileFileTests {
    static let d = DPoPTestKeys.rfc8037D
    static let x = DPoPTestKeys.rfc8037X
    static let otherX = DPoPTestKeys.rfc9449X  // 32 bytes, but no Ed25519 key of d

    /// A version 2 file whose `dpopKey` member is `key` (JSON) and token type `type`.
    static func file(key: String, type: String = #""DPoP""#) -> String {
        #"{"credentials":{"accessToken":"a1","accessTokenType":\#(type),"dpopKey":\#(key),"memberID":"42","refreshToken":"r1"},"version":2}"#
    }

    static func eddsa(d: String = d, x: String = x, extra: String = "") -> String {
        #"{"alg":"EdDSA","d":"\#(d)","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}\#(extra)}"#
    }

    /// Each case: what is wrong, the file, and the field its error must name.
    static let cases: [(String, String, String)] = {
        var cases: [(String, String, String)] = [
            ("d of 31 bytes", file(key: eddsa(d: Base64URL.encode([UInt8](repeating: 7, count: 31)))), "credentials.dpopKey.d"),
            ("d of 33 bytes", file(key: eddsa(d: Base64URL.encode([UInt8](repeating: 7, count: 33)))), "credentials.dpopKey.d"),
            ("d and se both", file(key: eddsa(extra: #","se":"AAAA""#)), "credentials.dpopKey"),
            ("neither d, se nor ref", file(key: #"{"alg":"EdDSA","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey"),
            ("an unknown alg", file(key: #"{"alg":"RS256","d":"\#(d)","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.alg"),
            ("alg none", file(key: #"{"alg":"none","d":"\#(d)","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.alg"),
            ("d with padding", file(key: eddsa(d: d + "=")), "credentials.dpopKey.d"),
            ("d in standard base64", file(key: eddsa(d: d.replacingOccurrences(of: "_", with: "/"))), "credentials.dpopKey.d"),
            ("a d of a million characters (the file just under the 1 MiB limit)", file(key: eddsa(d: String(repeating: "A", count: 1_000_000))), "credentials.dpopKey.d"),
            ("a control character in d", file(key: eddsa(d: "\\u0007" + d.dropFirst())), "credentials.dpopKey.d"),
            ("a number for d", file(key: #"{"alg":"EdDSA","d":42,"jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.d"),
            ("a private jwk", file(key: #"{"alg":"EdDSA","d":"\#(d)","jwk":{"crv":"Ed25519","d":"\#(d)","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.jwk.d"),
            ("an EC jwk for EdDSA", file(key: #"{"alg":"EdDSA","d":"\#(d)","jwk":{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(x)"}}"#), "credentials.dpopKey.jwk"),
            ("an OKP jwk for ES256", file(key: #"{"alg":"ES256","d":"\#(d)","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.jwk"),
            ("x of 31 bytes", file(key: eddsa(x: Base64URL.encode([UInt8](repeating: 1, count: 31)))), "credentials.dpopKey.jwk.x"),
            ("no jwk", file(key: #"{"alg":"EdDSA","d":"\#(d)"}"#), "credentials.dpopKey.jwk"),
            ("an EdDSA Secure Enclave key", file(key: #"{"alg":"EdDSA","se":"AAAA","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}}"#), "credentials.dpopKey.se"),
            ("an escape sequence in ref", file(key: #"{"alg":"ES256","ref":"\u001b[31mkey","jwk":{"crv":"P-256","kty":"EC","x":"\#(otherX)","y":"\#(otherX)"}}"#), "credentials.dpopKey.ref"),
            ("a token type with a newline", file(key: eddsa(), type: #""DPoP\nX-Injected: 1""#), "credentials.accessTokenType"),
        ]
        #if EncryptedTokenStore
        // Only a build with libsodium can derive an Ed25519 public key from d.
        cases.append(("a jwk that is not d's public key", file(key: eddsa(x: otherX)), "credentials.dpopKey.jwk"))
        #endif
        return cases
    }()

    @Test("each damaged key is unreadable, names its field, never shows d, and the file stays", arguments: cases.indices)
    func refused(index: Int) async throws {
        let (what, contents, field) = Self.cases[index]
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            try TokenStoreTesting.write(Array(contents.utf8), to: url)
            let listing = try TokenStoreTesting.contents(of: folder)
            let error = await TokenStoreTesting.expectStoreError { _ = try await FileTokenStore(fileURL: url).load() }
            #expect(error?.kind == .unreadable, "\(what)")
            let text = error?.description ?? ""
            #expect(text.contains("`\(field)`"), "\(what): \(text)")
            #expect(!text.contains(Self.d) && !text.contains(Self.d.prefix(12)), "\(what): the error shows d")
            #expect(text.count < 400, "\(what): \(text.count) characters")
            #expect(try TokenStoreTesting.bytes(at: url) == Array(contents.utf8), "\(what): the file changed")
            #expect(try TokenStoreTesting.contents(of: folder) == listing, "\(what): files added or removed")
        }
    }

    @Test("the unharmed file these cases start from reads")
    func baselineReads() async throws {
        let opened = try await CredentialsSealer.plain(location: "t").open(Array(Self.file(key: Self.eddsa()).utf8))
        #expect(opened.dpopKey?.algorithm == "EdDSA")
    }
}
