import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    /// Issue 34, items 2, 4, 5 and 8: a first run with nothing typed, tokens while the provider
    /// is down, a minimum validity for a printed token, and the browser flow's fixed port.
    /// Against ``FakeProvider``s on loopback: no live server.
    @Suite("app-oauth: first run without a terminal, tokens offline, --min-valid, --redirect-port")
    struct OAuthFirstRunTests {
        @Test("the first sign-in with no terminal and the default encrypted store works: a key file beside it, mode 0600; token reads it after")
        func firstRunWithoutTerminal() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            // No --store, --store-path, --key-file or passphrase: the defaults under XDG_CONFIG_HOME.
            let signIn = try await cli.signInClientCredentials(provider, [])
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let folder = try #require(cli.environment["XDG_CONFIG_HOME"]).appending("/app-sdk")
            let keyFile = folder + "/oauth-credentials.enc.key"
            let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect((attributes[.size] as? Int) == 32)
            let token = try await cli.run("app-oauth", ["token"])
            #expect(token.status == Exit.ok, "\(token)")
            #expect(token.output.hasPrefix("A-access-"), "\(token)")
        }

        @Test("token prints the stored token with the provider down: the discovery document is kept with the session")
        func tokenWithProviderDown() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(provider, store).status == Exit.ok)
            let stored = try await cli.run("app-oauth", ["token"] + store)
            let requests = provider.paths.count
            provider.stop()
            let offline = try await cli.run("app-oauth", ["token"] + store)
            #expect(offline.status == Exit.ok, "\(offline)")
            #expect(offline.output == stored.output && offline.output.hasPrefix("A-access-1"), "\(offline)")
            #expect(provider.paths.count == requests, "token asked the provider for something")
        }

        @Test("token --min-valid renews a token with less left than asked; with enough left, it prints the stored one")
        func minimumValidity() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A", FakeProvider.Settings(expiresIn: 8))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(provider, store).status == Exit.ok)
            let fresh = try await cli.run("app-oauth", ["token", "--min-valid", "3"] + store)
            #expect(fresh.output.trimmingCharacters(in: .whitespacesAndNewlines) == "A-access-1", "\(fresh)")
            try await Task.sleep(for: .milliseconds(5_500))   // about 2.5 s left: less than 3, more than the engine's margin
            let plain = try await cli.run("app-oauth", ["token", "--min-valid", "0"] + store)
            #expect(plain.output.trimmingCharacters(in: .whitespacesAndNewlines) == "A-access-1", "\(plain)")
            let renewed = try await cli.run("app-oauth", ["token", "--min-valid", "3"] + store)
            #expect(renewed.status == Exit.ok && renewed.output.trimmingCharacters(in: .whitespacesAndNewlines) == "A-access-2", "\(renewed)")
        }

        @Test("--redirect-port is for --browser and a port within 1–65535; anything else is a usage error (64) before any request",
              arguments: [["--device", "--redirect-port", "8400"], ["--redirect-port", "0"], ["--redirect-port", "70000"]])
        func redirectPortValidation(arguments: [String]) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli"] + arguments
                + cli.fileStore("oauth.json"))
            #expect(signIn.status == Exit.usage, "\(signIn)")
            #expect(provider.paths.isEmpty)
        }

        @Test("a browser sign-in says where it waits, for how long (--timeout), and what to check when the provider shows an error page")
        func browserWaitMessage() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("A")
            defer { provider.stop() }
            // Nobody comes back: the wait ends at --timeout 2, not after minutes.
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--redirect-port", "0"]
                + cli.fileStore("oauth.json"), environment: ["BROWSER": "true"], timeout: 60)
            #expect(signIn.status == Exit.usage, "\(signIn)")
            let waited = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--timeout", "2"]
                + cli.fileStore("oauth.json"), environment: ["BROWSER": "true"], timeout: 60)
            #expect(waited.status != Exit.ok && waited.seconds < 20, "\(waited)")
            #expect(waited.errorOutput.contains("Waiting up to 2 s for the browser to come back to http://127.0.0.1:"), "\(waited)")
            #expect(waited.errorOutput.contains("--redirect-port"), "\(waited)")
        }
    }
}
