import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    @Suite("No token is ever printed")
    struct SecrecyTests {
        @Test("stdout and stderr of every command never contain the stored tokens", .liveServer)
        func tokensNeverPrinted() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = cli.fileStore()
            var outputs: [CLIProcess.Outcome] = []
            let email = LiveServerEnvironment.uniqueEmail("cli")
            let credentials = ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password]
            outputs.append(try await cli.run("app-member", ["sign-up", "--nickname", "secret-keeper", "--json", "--verbose"] + store, environment: credentials))
            var tokens = try cli.storedTokens()

            let commands: [[String]] = [
                ["whoami", "--json", "--verbose"], ["whoami"], ["posts", "create", "--json", "text"], ["posts", "list", "--verbose"],
                ["posts", "show", "999999999"], ["today", "--json"], ["my-answers"], ["report", "post", "999999999", "x"],
            ]
            for arguments in commands {
                outputs.append(try await cli.run("app-member", arguments + store))
            }
            outputs.append(try await cli.run("app-admin", ["reports", "--verbose"] + store))

            if LiveServerEnvironment.hasTestMode {
                // A refresh writes new tokens; the programs must not print those either.
                try await TestModeServer.expireAccessTokens()
                outputs.append(try await cli.run("app-member", ["posts", "list", "--verbose", "--json"] + store))
                let refreshed = try cli.storedTokens()
                #expect(refreshed != tokens, "the expired token was refreshed")
                tokens += refreshed
            }
            outputs.append(try await cli.run("app-member", ["sign-in", "--verbose", "--json"] + store, environment: credentials))
            tokens += try cli.storedTokens()
            outputs.append(try await cli.run("app-member", ["sign-out", "--verbose"] + store))

            #expect(outputs.count > 10)
            for outcome in outputs {
                for token in tokens {
                    #expect(!outcome.output.contains(token), "a token on stdout: exit \(outcome.status)")
                    #expect(!outcome.errorOutput.contains(token), "a token on stderr: exit \(outcome.status)")
                }
                #expect(!outcome.output.contains(CLIProcess.password) && !outcome.errorOutput.contains(CLIProcess.password))
            }
        }

        @Test("the passphrase is never printed, not even when it is wrong", .liveServer)
        func passphraseNeverPrinted() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let passphrase = "correct horse battery staple"
            try await cli.signUp(cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": passphrase])
            let right = try await cli.run("app-member", ["whoami", "--verbose"] + cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": passphrase])
            let wrong = try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": passphrase + "!"])
            #expect(wrong.status == Exit.store)
            for outcome in [right, wrong] {
                #expect(!outcome.output.contains("battery") && !outcome.errorOutput.contains("battery"))
            }
            let file = try Data(contentsOf: URL(fileURLWithPath: cli.path("member.enc")))
            #expect(!String(decoding: file, as: UTF8.self).contains("eyJ"), "no JWT readable in the encrypted file")
        }
    }
}
