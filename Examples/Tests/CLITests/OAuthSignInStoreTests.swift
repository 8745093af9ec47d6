import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    /// Issue 33, item 14: `app-oauth sign-in` over a damaged or wrong-key store says where it
    /// moved it, and refuses (66) a store that does not decrypt unless told `--move-aside`, as
    /// app-member does; a client secret file written with CRLF sends no `\r`.
    @Suite("app-oauth sign-in over an unreadable store; a CRLF secret file")
    struct OAuthSignInStoreTests {
        private func store(_ cli: CLIProcess, key: String) -> [String] {
            ["--store", "encrypted", "--store-path", cli.path("oauth.enc"), "--key-file", cli.path(key)]
        }

        @Test("a damaged store: sign-in moves it aside, says where, and signs in")
        func damaged() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            #expect(try await cli.signInClientCredentials(provider, store(cli, key: "k1")).status == Exit.ok)
            try cli.write(Damage.truncated.apply(to: try cli.bytes("oauth.enc")), to: "oauth.enc")

            let again = try await cli.signInClientCredentials(provider, store(cli, key: "k1"))
            #expect(again.status == Exit.ok, "\(again)")
            let aside = try cli.movedAside("oauth.enc")
            #expect(aside.count == 1)
            #expect(aside.allSatisfy { again.errorOutput.contains("moved aside (kept, not deleted): \($0)") }, "\(again)")
            #expect(try await cli.run("app-oauth", ["token"] + store(cli, key: "k1")).status == Exit.ok)
        }

        @Test("a store that does not decrypt with this key: 66 and left as it is; with --move-aside, moved aside, said where, signed in")
        func wrongKey() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            #expect(try await cli.signInClientCredentials(provider, store(cli, key: "k1")).status == Exit.ok)
            let before = try cli.bytes("oauth.enc")

            let refused = try await cli.signInClientCredentials(provider, store(cli, key: "k2"))
            #expect(refused.status == Exit.store, "\(refused)")
            #expect(refused.errorOutput.contains("--move-aside"), "\(refused)")
            #expect(try cli.bytes("oauth.enc") == before)
            #expect(try cli.movedAside("oauth.enc").isEmpty)

            let moved = try await cli.signInClientCredentials(provider, store(cli, key: "k2") + ["--move-aside"])
            #expect(moved.status == Exit.ok, "\(moved)")
            let aside = try cli.movedAside("oauth.enc")
            #expect(aside.count == 1)
            #expect(aside.allSatisfy { moved.errorOutput.contains("moved aside (kept, not deleted): \($0)") }, "\(moved)")
            #expect(try aside.allSatisfy { try Data(contentsOf: URL(fileURLWithPath: $0)) == Data(before) })
        }

        @Test("a client secret file ending in CRLF: the secret goes without \\r")
        func crlfSecret() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            try Data((FakeProvider.clientSecret + "\r\n").utf8).write(to: cli.folder.appendingPathComponent("client-secret"))
            let signIn = try await cli.signInClientCredentials(provider, cli.fileStore("oauth.json"))
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let sent = provider.tokenAuthorizations.compactMap { field -> String? in
                guard field.hasPrefix("Basic ") else { return nil }
                return Data(base64Encoded: String(field.dropFirst(6))).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(sent == ["job:\(FakeProvider.clientSecret)"], "\(sent)")
        }
    }
}
