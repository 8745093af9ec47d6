import Foundation
import NetworkService
import Testing
import TokenStore

/// The bytes a bearer session is stored as, pinned before the DPoP key joined the format
/// (issue 36): every store writes version 1 for a session without a key, byte for byte as
/// release 0.9.0 did, so a process of that release keeps reading what a newer one writes.
@Suite("A bearer session is stored as format version 1, byte for byte as before DPoP")
struct CredentialsFileGoldenTests {
    static let credentials = Credentials(
        accessToken: AccessToken("a1"), refreshToken: "r1",
        accessTokenExpiresAt: Date(timeIntervalSinceReferenceDate: 806_839_200.5), accountID: "42",
        accessTokenIssuedAt: Date(timeIntervalSinceReferenceDate: 806_838_300)
    )

    /// What release 0.9.0 writes for ``credentials`` (checked against its code before the change).
    static let golden =
        #"{"credentials":{"accessToken":"a1","accessTokenExpiresAt":806839200.5,"accessTokenIssuedAt":806838300,"memberID":"42","refreshToken":"r1"},"version":1}"#

    @Test("the plain sealer (and so the file store, the Keychain item and a plain row) writes the golden bytes")
    func plainBytes() throws {
        let bytes = try CredentialsSealer.plain(location: "golden").seal(Self.credentials)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.golden)
    }

    @Test("the file store writes the golden bytes and reads them back")
    func fileStoreBytes() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            try await FileTokenStore(fileURL: url).save(Self.credentials)
            #expect(String(decoding: try TokenStoreTesting.bytes(at: url), as: UTF8.self) == Self.golden)
            #expect(try await FileTokenStore(fileURL: url).load() == Self.credentials)
        }
    }

    @Test("the golden bytes open to the same credentials")
    func goldenOpens() async throws {
        let opened = try await CredentialsSealer.plain(location: "golden").open(Array(Self.golden.utf8))
        #expect(opened == Self.credentials)
    }

    @Test("a version this code does not read is refused with the version it has and the one it reads")
    func unknownVersion() async throws {
        let bytes = Array(Self.golden.replacingOccurrences(of: #""version":1"#, with: #""version":7"#).utf8)
        let error = await TokenStoreTesting.expectStoreError {
            _ = try await CredentialsSealer.plain(location: "golden").open(bytes)
        }
        #expect(error?.kind == .unsupportedFormatVersion)
        #expect(error?.description.contains("has format version 7; this code reads version") == true, "\(error?.description ?? "")")
    }
    // 0.9.0's refusal of version 2 ("has format version 2; this code reads version 1"), pinned
    // here against 0.9.0's code, is checked from now on with a reader of version 1 only:
    // DPoPKeyFileFormatTests.versionOneReaderRefuses.
}
