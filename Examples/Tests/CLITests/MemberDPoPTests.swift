import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    /// `app-member sign-in --dpop` against the reference server that requires DPoP with nonces
    /// (`APP_DPOP_SERVER_URL`, which scripts/test starts with `--dpop required --dpop-nonce
    /// required`): the session is bound to a key kept in the store, and later commands prove it.
    @Suite("app-member with DPoP", .liveServer)
    struct MemberDPoPTests {
        /// The DPoP server's URL; scripts/test sets it for the cli-tests phase.
        static func serverURL() throws -> String {
            try #require(ProcessInfo.processInfo.environment["APP_DPOP_SERVER_URL"].flatMap { $0.isEmpty ? nil : $0 },
                         "APP_DPOP_SERVER_URL is not set: start a reference server with --dpop required (scripts/test does)")
        }

        @Test("sign-in --anonymous --dpop [eddsa|es256]: the key is stored with the tokens, whoami proves it (nonces included), sign-out ends it; no key printed",
              arguments: [("eddsa", "EdDSA"), ("es256", "ES256")])
        func anonymousSignIn(_ kind: String, _ algorithm: String) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let server = ["APP_SERVER_URL": try Self.serverURL()]
            let store = cli.fileStore()
            let signIn = try await cli.run("app-member", ["sign-in", "--anonymous", "--dpop", kind] + store, environment: server)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let key = try OAuthDPoPTests.storedKey(cli, "member.json")
            #expect(key.algorithm == algorithm)
            #expect(key.accessTokenType == "DPoP")
            #expect(signIn.errorOutput.contains("DPoP-bound (\(algorithm), key \(key.publicKey.thumbprint.prefix(8))…)"), "\(signIn)")

            let whoami = try await cli.run("app-member", ["whoami", "--json"] + store, environment: server)
            #expect(whoami.status == Exit.ok, "\(whoami)")
            let signOut = try await cli.run("app-member", ["sign-out"] + store, environment: server)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            for outcome in [signIn, whoami, signOut] {
                #expect(!outcome.output.contains(key.d) && !outcome.errorOutput.contains(key.d), "the private key was printed")
            }
        }

        @Test("a bearer sign-in at a server requiring DPoP is refused, and --dpop rs256 is a usage error")
        func bearerRefused() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let server = ["APP_SERVER_URL": try Self.serverURL()]
            let bearer = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.fileStore(), environment: server)
            #expect(bearer.status != Exit.ok, "\(bearer)")
            let unknown = try await cli.run("app-member", ["sign-in", "--anonymous", "--dpop", "rs256"] + cli.fileStore(), environment: server)
            #expect(unknown.status == Exit.usage, "\(unknown)")
            #expect(unknown.errorOutput.contains("eddsa or es256"), "\(unknown)")
        }

        @Test("app-admin sign-in --dpop: a member is refused (68) before anything is kept, the stored session unchanged; the admin at a server that does not bind tokens is refused (69), nothing stored; at one that does, kept under the member's id",
              .adminAccount)
        func adminSignIn() async throws {
            // The bearer reference server (APP_SERVER_URL), which answers a proof with a bearer token.
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = cli.fileStore()
            let email = try await cli.signUp(store)
            let before = try Data(contentsOf: cli.folder.appendingPathComponent("member.json"))
            let member = try await cli.run("app-admin", ["sign-in", "--dpop"] + store,
                                           environment: ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password])
            #expect(member.status == Exit.forbidden, "\(member)")
            #expect(try Data(contentsOf: cli.folder.appendingPathComponent("member.json")) == before, "the member's sign-in changed the store")

            let adminStore = cli.fileStore("admin.json")
            let admin = try await cli.run("app-admin", ["sign-in", "--dpop"] + adminStore, environment: [
                "APP_EMAIL": LiveServerEnvironment.adminEmail ?? "", "APP_PASSWORD": LiveServerEnvironment.adminPassword ?? "",
            ])
            #expect(admin.status == Exit.rejected, "\(admin)")
            #expect(admin.errorOutput.contains("did not bind the tokens to the DPoP key"), "\(admin)")
            #expect(try cli.storedAccessToken("admin.json") == nil, "a bearer answer was kept")

            // The DPoP server (it has the same admin): bound, and kept under the member's id as
            // every other sign-in keeps it (it was once the token's lower-case `sub`).
            let boundStore = cli.fileStore("admin-dpop.json")
            let bound = try await cli.run("app-admin", ["sign-in", "--dpop"] + boundStore, environment: [
                "APP_SERVER_URL": try Self.serverURL(),
                "APP_EMAIL": LiveServerEnvironment.adminEmail ?? "", "APP_PASSWORD": LiveServerEnvironment.adminPassword ?? "",
            ])
            #expect(bound.status == Exit.ok, "\(bound)")
            #expect(try OAuthDPoPTests.storedKey(cli, "admin-dpop.json").accessTokenType == "DPoP")
            let file = try Data(contentsOf: cli.folder.appendingPathComponent("admin-dpop.json"))
            let credentials = try #require((try JSONSerialization.jsonObject(with: file) as? [String: Any])?["credentials"] as? [String: Any])
            let accountID = try #require(credentials["memberID"] as? String)
            #expect(UUID(uuidString: accountID)?.uuidString == accountID, "stored under \(accountID), not the member's id")
        }
    }
}
