import AppSDKTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLITests {
    /// Issue 34, items 6, 7 and 9: exit codes as the README says them, `--verbose` prints the
    /// refresh records, help that matches the program. Against ``FakeProvider``s: no live server.
    @Suite("app-oauth exit codes, --verbose and help")
    struct OAuthExitCodeTests {
        @Test("invalid_client at sign-in: 64 with a hint about the client; an empty-bodied 403: 68, not the transient 67")
        func signInRefusals() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let cases: [(status: Int, body: String, exit: Int32, says: String)] = [
                (401, #"{"error":"invalid_client","error_description":"Client authentication failed"}"#, Exit.usage, "check --client-id"),
                (400, #"{"error":"invalid_scope"}"#, Exit.usage, "check --scope"),
                (401, "", Exit.usage, "check --client-id"),
                (403, "", Exit.forbidden, "--scope"),
            ]
            for refusal in cases {
                let provider = try FakeProvider("A", FakeProvider.Settings(tokenError: (refusal.status, refusal.body)))
                defer { provider.stop() }
                let signIn = try await cli.signInClientCredentials(provider, cli.fileStore("oauth.json"))
                #expect(signIn.status == refusal.exit, "\(refusal.status) \(refusal.body): \(signIn)")
                #expect(signIn.errorOutput.hasPrefix("app-oauth: sign-in failed: "), "\(signIn)")
                #expect(signIn.errorOutput.contains(refusal.says), "\(signIn)")
            }
        }

        @Test("invalid_client when token renews the session: 64 too, and the message does not say sign-in failed")
        func renewalRefusal() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A", FakeProvider.Settings(expiresIn: 1))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(provider, store).status == Exit.ok)
            provider.configure { $0.tokenError = (401, #"{"error":"invalid_client"}"#) }
            try await Task.sleep(for: .milliseconds(1_500))
            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.usage, "\(token)")
            #expect(!token.errorOutput.contains("sign-in failed"), "\(token)")
            #expect(token.errorOutput.contains("check --client-id"), "\(token)")
        }

        @Test("--verbose: token prints the refresh's records on stderr, naming the token endpoint; stdout is the token alone")
        func verbose() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A", FakeProvider.Settings(expiresIn: 1))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--device"] + store)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            try await Task.sleep(for: .milliseconds(1_500))
            let token = try await cli.run("app-oauth", ["token", "--verbose"] + store)
            #expect(token.status == Exit.ok, "\(token)")
            #expect(token.output.hasPrefix("A-access-") && !token.output.contains("refresh"), "\(token)")
            #expect(token.errorOutput.contains("the access token is due"), "\(token)")
            #expect(token.errorOutput.contains("POST \(provider.issuer)/token answered"), "\(token)")
            #expect(token.errorOutput.contains("refreshed; the new tokens are saved in the store"), "\(token)")
            #expect(!token.errorOutput.contains("A-access-") && !token.errorOutput.contains("A-refresh-"), "a token in the notes")
        }

        @Test("help names app-oauth's own default store and exit codes; status signed out says it once, on stdout")
        func help() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let signInHelp = try await cli.run("app-oauth", ["sign-in", "--help"])
            #expect(signInHelp.output.contains("default encrypted]"), "\(signInHelp)")
            #expect(signInHelp.output.contains("oauth-credentials.enc"), "\(signInHelp)")
            #expect(!signInHelp.output.contains("default file]") && !signInHelp.output.contains("app-sdk/credentials.json"), "\(signInHelp)")
            let help = try await cli.run("app-oauth", ["--help"])
            #expect(help.output.contains("EXIT CODES"), "\(help)")
            #expect(!help.output.contains("--server"), "\(help)")
            #expect(help.output.contains("BROWSER"), "\(help)")
            let memberHelp = try await cli.run("app-member", ["sign-in", "--help"])
            #expect(memberHelp.output.contains("[APP_STORE, default file]"), "\(memberHelp)")

            let status = try await cli.run("app-oauth", ["status", "--store", "file", "--store-path", cli.path("none.json")])
            #expect(status.status == Exit.notSignedIn, "\(status)")
            #expect(status.output == "not signed in\n", "\(status)")
            #expect(status.errorOutput.isEmpty, "\(status)")
        }

        @Test("BROWSER: the browser sign-in runs its command with the URL as one argument (%s replaced)")
        func browserVariable() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            let opened = cli.folder.appendingPathComponent("opened")
            let script = cli.folder.appendingPathComponent("browser")
            try Data("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > '\(opened.path)'\n".utf8).write(to: script)
            chmod(script.path, 0o700)
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli"] + cli.fileStore("oauth.json"),
                                           environment: ["BROWSER": "\(script.path) --new-window %s"], timeout: 4)
            let lines = try String(contentsOf: opened, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines.first == "--new-window", "\(lines)")
            let url = try #require(lines.last)
            #expect(url.hasPrefix(provider.issuer + "/authorize?"), "\(url)")
            #expect(signIn.errorOutput.contains("  \(url)\n"), "\(signIn)")
        }
    }
}
