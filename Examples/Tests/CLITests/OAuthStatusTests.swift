import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    /// Issue 33, item 11: `app-oauth status` with an expiry 2^63 seconds or more away ended in
    /// SIGILL (`Int(expiry.timeIntervalSinceNow.rounded())`).
    @Suite("app-oauth status with absurd expiries")
    struct OAuthStatusTests {
        @Test("a store whose expiry is ±1e300: status answers (exit 0), the token good for years or expired",
              arguments: [("1e300", "good for"), ("-1e300", "expired")])
        func damagedStoreExpiry(_ expiry: String, _ says: String) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let a = try FakeProvider("A")
            defer { a.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(a, store).status == Exit.ok)
            let file = #"{"version":1,"credentials":{"accessToken":"A-access-1","refreshToken":"","memberID":"job","accessTokenExpiresAt":\#(expiry)}}"#
            try cli.write(Array(file.utf8), to: "oauth.json")
            for arguments in [["status"], ["status", "--json"]] {
                let status = try await cli.run("app-oauth", arguments + store)
                #expect(status.status == Exit.ok, "\(arguments): \(status)")
                #expect(arguments.count == 2 || status.output.contains(says), "\(status)")
            }
        }

        @Test("a JWT access token with exp 1e19 and no expires_in: sign-in and status work")
        func jwtExp() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let claims = Data(#"{"sub":"job","exp":1e19}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let a = try FakeProvider("A", FakeProvider.Settings(accessToken: "eyJhbGciOiJub25lIn0.\(claims).c2ln", expiresIn: nil))
            defer { a.stop() }
            let store = cli.fileStore("oauth.json")
            let signIn = try await cli.signInClientCredentials(a, store)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let status = try await cli.run("app-oauth", ["status"] + store)
            #expect(status.status == Exit.ok, "\(status)")
            #expect(status.output.contains("signed in as job"), "\(status)")
        }
    }
}
