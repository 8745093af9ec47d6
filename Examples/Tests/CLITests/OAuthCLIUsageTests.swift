import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    /// `app-oauth`'s refusals that need no server: each with its documented exit code.
    @Suite("app-oauth usage")
    struct OAuthCLIUsageTests {
        @Test("--client-credentials without --client-secret-file, a bad --issuer, and --store memory are usage errors (64)")
        func usageErrors() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let runs: [[String]] = [
                ["sign-in", "--issuer", "http://127.0.0.1:9/o", "--client-id", "job", "--client-credentials"],
                ["sign-in", "--issuer", "not a url", "--client-id", "cli", "--device"],
                ["sign-in", "--issuer", "http://127.0.0.1:9/o", "--client-id", "cli", "--device", "--store", "memory"],
            ]
            for arguments in runs {
                let outcome = try await cli.run("app-oauth", arguments)
                #expect(outcome.status == Exit.usage, "\(arguments): \(outcome)")
                #expect(outcome.output.isEmpty, "\(arguments): \(outcome)")
            }
        }

        @Test("token, whoami and status before any sign-in: not signed in (65), nothing on stdout but status's answer")
        func notSignedIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = ["--store", "encrypted", "--store-path", cli.path("oauth.enc"), "--key-file", cli.path("oauth.key")]
            for command in ["token", "whoami"] {
                let outcome = try await cli.run("app-oauth", [command] + store)
                #expect(outcome.status == Exit.notSignedIn, "\(command): \(outcome)")
                #expect(outcome.output.isEmpty, "\(command): \(outcome)")
                #expect(outcome.errorOutput.contains("not signed in"), "\(command): \(outcome)")
            }
            let status = try await cli.run("app-oauth", ["status", "--json"] + store)
            #expect(status.status == Exit.notSignedIn, "\(status)")
            #expect(status.output.contains("\"signedIn\" : false"), "\(status)")
        }
    }
}
