import AppSDKHarness
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLITests {
    @Suite("Token store errors exit with 66")
    struct StoreErrorTests {
        @Test("the encrypted store without a passphrase and without a terminal fails at once: no prompt")
        func noPromptWithoutTerminal() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            // Standard input is /dev/null, APP_STORE_PASSPHRASE is unset: nobody could answer.
            let outcome = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9"] + cli.encryptedStore(),
                                            timeout: 20)
            #expect(!outcome.timedOut, "the program waited for input: \(outcome)")
            #expect(outcome.status == Exit.store, "\(outcome)")
            #expect(outcome.seconds < 10)
            #expect(outcome.errorOutput.contains("APP_STORE_PASSPHRASE"))
            #expect(!outcome.errorOutput.lowercased().contains("passphrase for"), "it must not print a prompt")
        }

        @Test("the wrong passphrase for an encrypted store", .liveServer)
        func wrongPassphrase() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": "the right one"])
            let right = try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": "the right one"])
            #expect(right.status == Exit.ok, "\(right)")
            let wrong = try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": "a wrong one"])
            #expect(wrong.status == Exit.store, "\(wrong)")
            #expect(wrong.output.isEmpty)
            #expect(wrong.errorOutput.contains("passphrase"))
        }

        @Test("signing in with a mistyped passphrase leaves the existing encrypted store as it was", .liveServer)
        func mistypedPassphraseKeepsStore() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": "the right one"])
            let url = URL(fileURLWithPath: cli.path("member.enc"))
            let before = try Data(contentsOf: url)
            let retry = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(),
                                          environment: ["APP_STORE_PASSPHRASE": "the rihgt one"])
            #expect(retry.status == Exit.store, "\(retry)")
            #expect(try Data(contentsOf: url) == before)
            let right = try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: ["APP_STORE_PASSPHRASE": "the right one"])
            #expect(right.status == Exit.ok, "\(right)")
        }

        @Test("a modified encrypted file", .liveServer)
        func modifiedFile() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let passphrase = ["APP_STORE_PASSPHRASE": "tamper test"]
            try await cli.signUp(cli.encryptedStore(), environment: passphrase)
            let url = URL(fileURLWithPath: cli.path("member.enc"))
            var bytes = [UInt8](try Data(contentsOf: url))
            bytes[bytes.count - 20] ^= 0x01
            try Data(bytes).write(to: url)
            chmod(url.path, 0o600)
            let outcome = try await cli.run("app-member", ["posts", "list"] + cli.encryptedStore(), environment: passphrase)
            #expect(outcome.status == Exit.store, "\(outcome)")
            #expect(outcome.errorOutput.contains("modified"))
        }

        @Test("a plain store file that others can read is refused", .liveServer)
        func insecurePermissions() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            chmod(cli.path("member.json"), 0o644)
            let outcome = try await cli.run("app-member", ["whoami"] + cli.fileStore())
            #expect(outcome.status == Exit.store, "\(outcome)")
            #expect(outcome.errorOutput.contains("chmod 600"))
        }

        @Test("a key file instead of a passphrase works without a terminal", .liveServer)
        func keyFile() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = cli.encryptedStore() + ["--key-file", cli.path("store.key")]
            try await cli.signUp(store)
            let outcome = try await cli.run("app-member", ["whoami", "--json"] + store)
            #expect(outcome.status == Exit.ok, "\(outcome)")
            var attributes = stat()
            #expect(stat(cli.path("store.key"), &attributes) == 0)
            #expect(attributes.st_mode & 0o077 == 0, "the key file is created 0600")
        }
    }
}
