import AppSDKTesting
import Foundation
import NetworkService
import Testing

extension CLITests {
    /// Issue 33, item 2: a provider's strings (the account id from userinfo's `sub`, its
    /// `name`, an `error_description`) reach the terminal with their control characters escaped.
    @Suite("app-oauth prints a provider's strings safely")
    struct OAuthTerminalSafetyTests {
        /// Whether `text` holds ESC, BEL, CSI (8-bit), DEL, another C0 or C1 control but the
        /// line feed, or a bidirectional override.
        static func hasControl(_ text: String) -> Bool {
            text.unicodeScalars.contains {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
            }
        }

        @Test("a device sign-in whose userinfo name and email carry escape sequences: sign-in, whoami and status print them escaped")
        func hostileUserinfo() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let userinfo = #"{"sub":"alice","name":"\u001b[2JMallory\u009b31m","email":"m\u202eexe.@example.com"}"#
            let provider = try FakeProvider("A", FakeProvider.Settings(userinfo: userinfo))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--device"] + store)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            var outcomes = [signIn]
            for arguments in [["whoami"], ["whoami", "--json"], ["status"], ["status", "--json"], ["sign-in", "--json"]] {
                let extra = arguments.first == "sign-in" ? ["--issuer", provider.issuer, "--client-id", "cli", "--device"] : []
                let outcome = try await cli.run("app-oauth", arguments + extra + store)
                #expect(outcome.status == Exit.ok, "\(arguments): \(outcome)")
                outcomes.append(outcome)
            }
            #expect(outcomes[1].output.contains(#"\u{1B}[2JMallory\u{9B}31m (alice)"#), "\(outcomes[1])")
            for outcome in outcomes {
                #expect(!Self.hasControl(outcome.output) && !Self.hasControl(outcome.errorOutput), "\(outcome.output.debugDescription) \(outcome.errorOutput.debugDescription)")
            }
            // --json keeps the values: escaped as JSON, parsed back whole.
            let json = try JSONSerialization.jsonObject(with: Data(outcomes[2].output.utf8)) as? [String: Any]
            #expect((json?["claims"] as? [String: Any])?["name"] as? String == "\u{1B}[2JMallory\u{9B}31m")
        }

        @Test("a userinfo sub with an escape sequence is no account id: the sign-in is refused, its message escaped, nothing stored")
        func hostileSubject() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let userinfo = #"{"sub":"alice\u001b]0;pwned\u0007","name":"Alice"}"#
            let provider = try FakeProvider("A", FakeProvider.Settings(userinfo: userinfo))
            defer { provider.stop() }
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--device"]
                + cli.fileStore("oauth.json"))
            #expect(signIn.status != Exit.ok, "\(signIn)")
            #expect(signIn.errorOutput.contains("sub"), "\(signIn)")
            #expect(!Self.hasControl(signIn.output) && !Self.hasControl(signIn.errorOutput), "\(signIn.errorOutput.debugDescription)")
            #expect(try cli.storedAccessToken("oauth.json") == nil)
        }

        @Test("a token endpoint's error_description with escape sequences: the sign-in's message shows them escaped")
        func hostileErrorDescription() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let body = #"{"error":"invalid_scope","error_description":"no\u001b]52;c;SGVsbG8=\u0007 \u001b[2J\u009b31m"}"#
            let provider = try FakeProvider("A", FakeProvider.Settings(tokenError: (400, body)))
            defer { provider.stop() }
            let signIn = try await cli.signInClientCredentials(provider, cli.fileStore("oauth.json"))
            #expect(signIn.status != Exit.ok, "\(signIn)")
            #expect(signIn.errorOutput.contains("invalid_scope") || signIn.errorOutput.contains("no"), "\(signIn)")
            #expect(!Self.hasControl(signIn.output) && !Self.hasControl(signIn.errorOutput), "\(signIn.errorOutput.debugDescription)")
        }
    }
}
