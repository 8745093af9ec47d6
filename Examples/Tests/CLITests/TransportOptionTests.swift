import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    /// `--transport` (and `APP_TRANSPORT`): the AsyncHTTPClient transport does what URLSession does.
    @Suite("--transport chooses how requests are sent")
    struct TransportOptionTests {
        @Test("with --transport async-http-client a member signs up, posts, reads the post back and signs out", .liveServer)
        func asyncHTTPClientSession() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let transport = ["--transport", "async-http-client"]
            try await cli.signUp(cli.fileStore() + transport)
            let created = try await cli.run("app-member", ["posts", "create", "--json", "sent over AsyncHTTPClient"] + cli.fileStore() + transport)
            #expect(created.status == Exit.ok, "\(created)")
            let post = try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any]
            let id = try #require(post?["id"] as? Int)
            let shown = try await cli.run("app-member", ["posts", "show", "--json", "\(id)"] + cli.fileStore() + transport)
            #expect(shown.status == Exit.ok, "\(shown)")
            #expect(shown.output.contains("sent over AsyncHTTPClient"))
            let whoami = try await cli.run("app-member", ["whoami"] + cli.fileStore(), environment: ["APP_TRANSPORT": "async-http-client"])
            #expect(whoami.status == Exit.ok, "\(whoami)")
            let signOut = try await cli.run("app-member", ["sign-out"] + cli.fileStore() + transport)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            for outcome in [created, shown, whoami, signOut] {
                #expect(!outcome.errorOutput.contains("shut down"), "the client is shut down only after the command: \(outcome)")
            }
        }

        @Test("a server nobody listens on exits with 67 at once, as cannot-connect, over either transport",
              arguments: ["urlsession", "async-http-client"])
        func unreachableServer(_ transport: String) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-member", ["sign-in", "--server", "http://127.0.0.1:9", "--transport", transport] + cli.fileStore(),
                                            environment: ["APP_EMAIL": "nobody@example.com", "APP_PASSWORD": CLIProcess.password],
                                            timeout: 30)
            #expect(outcome.status == Exit.server, "\(outcome)")
            #expect(outcome.errorOutput.contains("cannotConnect"), "\(outcome)")
            #expect(!outcome.errorOutput.contains(CLIProcess.password))
            #expect(outcome.seconds < 10, "\(outcome)")
        }

        @Test("an unknown transport is a usage error, from the flag or from APP_TRANSPORT")
        func unknownTransport() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let flag = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9", "--transport", "carrier-pigeon"])
            #expect(flag.status == Exit.usage, "\(flag)")
            let variable = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9"],
                                             environment: ["APP_TRANSPORT": "carrier-pigeon"])
            #expect(variable.status == Exit.usage, "\(variable)")
            #expect(variable.errorOutput.contains("APP_TRANSPORT"))
        }
    }
}
