import Foundation
import NetworkService
import Testing
@testable import TokenStore

/// Format version 2 of the store (issue 36): the DPoP key beside the tokens, written only for a
/// session that has one, refused clearly by a reader of version 1.
@Suite("A DPoP-bound session is stored as format version 2")
struct DPoPKeyFileFormatTests {
    /// The version 2 file of a session bound to RFC 8037's key, as this code writes it.
    static let version2 =
        #"{"credentials":{"accessToken":"a1","accessTokenType":"DPoP","dpopKey":{"alg":"EdDSA","d":"\#(DPoPTestKeys.rfc8037D)","jwk":{"crv":"Ed25519","kty":"OKP","x":"\#(DPoPTestKeys.rfc8037X)"}},"memberID":"42","refreshToken":"r1"},"version":2}"#

    #if EncryptedTokenStore
    static func rfc8037Credentials() -> Credentials {
        var credentials = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1", accessTokenExpiresAt: nil, accountID: "42")
        credentials.dpopKey = DPoPTestKeys.eddsa(seed: DPoPTestKeys.bytes(DPoPTestKeys.rfc8037D))
        credentials.accessTokenType = "DPoP"
        return credentials
    }

    @Test("a session with a key is written as version 2, with d, the public jwk and the token type")
    func writesVersion2() throws {
        let bytes = try CredentialsFile.encode(Self.rfc8037Credentials(), path: "test")
        #expect(String(decoding: bytes, as: UTF8.self) == Self.version2)
    }

    @Test("version 2 reads back to the same credentials")
    func readsVersion2() throws {
        let read = try CredentialsFile.decode(Array(Self.version2.utf8), path: "test")
        #expect(read == Self.rfc8037Credentials())
        #expect(read.dpopKey?.thumbprint == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
    }
    #endif

    @Test("a Secure Enclave key is written as se and an app's key as ref, never with d")
    func otherMaterial() throws {
        for key in [DPoPTestKeys.secureEnclave(), DPoPTestKeys.external()] {
            let text = String(decoding: try CredentialsFile.encode(DPoPTestKeys.credentials(key), path: "test"), as: UTF8.self)
            #expect(text.contains(#""version":2"#))
            #expect(text.contains(#""se":"#) == (key.material.kind == "secureEnclave"), "\(text)")
            #expect(text.contains(#""ref":"com.example.app\/dpop-key-1""#) == (key.material.kind == "external"), "\(text)")
            #expect(!text.contains(#""d":"#))
        }
    }

    @Test("a reader of version 1, as every release before 0.10, refuses version 2 with both versions named")
    func versionOneReaderRefuses() {
        #expect {
            _ = try CredentialsFile.decode(Array(Self.version2.utf8), path: "old", newestVersion: 1)
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.kind == .unsupportedFormatVersion
                && error?.description.contains("has format version 2; this code reads version 1") == true
        }
    }

    @Test("this code names both versions it reads when it refuses a newer one")
    func newerVersionRefused() {
        let bytes = Array(Self.version2.replacingOccurrences(of: #""version":2"#, with: #""version":3"#).utf8)
        #expect {
            _ = try CredentialsFile.decode(bytes, path: "new")
        } throws: { error in
            (error as? TokenStoreError)?.description.contains("has format version 3; this code reads versions 1 and 2") == true
        }
    }

    @Test("a version 1 file carrying a key is refused rather than read half")
    func versionOneWithKey() {
        let bytes = Array(Self.version2.replacingOccurrences(of: #""version":2"#, with: #""version":1"#).utf8)
        #expect {
            _ = try CredentialsFile.decode(bytes, path: "test")
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.kind == .unreadable && error?.description.contains("need format version 2") == true
        }
    }

    @Test("a bearer session's token type alone also needs version 2")
    func tokenTypeAlone() throws {
        var credentials = TokenStoreTesting.credentials()
        credentials.accessTokenType = "DPoP"
        let text = String(decoding: try CredentialsFile.encode(credentials, path: "test"), as: UTF8.self)
        #expect(text.hasSuffix(#""version":2}"#))
        #expect(try CredentialsFile.decode(Array(text.utf8), path: "test") == credentials)
    }
}
