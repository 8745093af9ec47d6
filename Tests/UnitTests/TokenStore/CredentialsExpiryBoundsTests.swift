import Foundation
import NetworkService
import Testing
import TokenStore

/// Issue 33, item 11: an absurd expiry (a JWT's `exp` of 1e19, a damaged store's ±1e300, NaN)
/// is bounded where credentials are read and made, so no code that counts seconds to it traps.
@Suite("Credentials' dates are bounded to years 0001–4001")
struct CredentialsExpiryBoundsTests {
    /// A plain store file whose expiry is `expiry` (seconds since 2001, as stores write it).
    private func storeFile(expiry: String, issued: String = "0") -> Data {
        Data(#"{"version":1,"credentials":{"accessToken":"a","refreshToken":"r","memberID":"kim","accessTokenExpiresAt":\#(expiry),"accessTokenIssuedAt":\#(issued)}}"#.utf8)
    }

    @Test("a store's expiry of ±1e300 or 1e19 reads clamped to Date.distantFuture or .distantPast, and counts in whole seconds",
          arguments: [("1e300", Date.distantFuture), ("-1e300", Date.distantPast), ("1e19", Date.distantFuture),
                      ("-1e19", Date.distantPast), ("806839200.5", Date(timeIntervalSinceReferenceDate: 806_839_200.5))])
    func storeFileExpiry(_ stored: String, _ expected: Date) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tokens.json")
        try storeFile(expiry: stored, issued: stored).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)

        let credentials = try #require(try await FileTokenStore(fileURL: file).load())
        #expect(credentials.accessTokenExpiresAt == expected)
        #expect(credentials.accessTokenIssuedAt == expected)
        // What app-oauth status did with it (SIGILL before): now always in Int's range.
        let seconds = try #require(credentials.accessTokenExpiresAt?.timeIntervalSinceNow)
        #expect(abs(Int(seconds.rounded())) < 70_000_000_000)
        #expect(String(describing: credentials).contains("account: kim"))
    }

    @Test("the initializer clamps infinite and absurd dates and takes NaN as unknown")
    func initializer() {
        func made(_ seconds: Double) -> Credentials {
            Credentials(accessToken: AccessToken("a"), refreshToken: "r", accessTokenExpiresAt: Date(timeIntervalSinceReferenceDate: seconds),
                        accountID: "kim", accessTokenIssuedAt: Date(timeIntervalSinceReferenceDate: seconds))
        }
        #expect(made(.infinity).accessTokenExpiresAt == .distantFuture)
        #expect(made(-.infinity).accessTokenIssuedAt == .distantPast)
        #expect(made(1e300).accessTokenExpiresAt == .distantFuture)
        #expect(made(.nan).accessTokenExpiresAt == nil)
        #expect(made(.nan).accessTokenIssuedAt == nil)
        #expect(made(1_000).accessTokenExpiresAt == Date(timeIntervalSinceReferenceDate: 1_000))
    }

    @Test("an assignment is bounded too, and bounded credentials can be saved (a NaN expiry could not)")
    func assignment() throws {
        var credentials = Credentials(accessToken: AccessToken("a"), refreshToken: "r", accessTokenExpiresAt: nil, accountID: "kim")
        credentials.accessTokenExpiresAt = Date(timeIntervalSinceReferenceDate: 1e300)
        #expect(credentials.accessTokenExpiresAt == .distantFuture)
        credentials.accessTokenIssuedAt = Date(timeIntervalSinceReferenceDate: -1e300)
        #expect(credentials.accessTokenIssuedAt == .distantPast)
        credentials.accessTokenExpiresAt = Date(timeIntervalSinceReferenceDate: .nan)
        #expect(credentials.accessTokenExpiresAt == nil)
        let again = try JSONDecoder().decode(Credentials.self, from: JSONEncoder().encode(credentials))
        #expect(again == credentials)
    }
}
