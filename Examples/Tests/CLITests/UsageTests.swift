import Testing

extension CLITests {
    /// Failures found before anything is sent: no server needed.
    @Suite("Usage errors exit with 64")
    struct UsageTests {
        @Test("an unknown command, a bad flag value and an out-of-range page size are usage errors",
              arguments: [
                  ["frobnicate"],
                  ["posts", "list", "--page-size", "0"],
                  ["posts", "list", "--page-size", "101"],
                  ["posts", "list", "--store", "floppy"],
                  ["posts", "show", "not-a-number"],
                  ["report", "photo", "1", "spam"],
              ])
        func badArguments(_ arguments: [String]) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-member", arguments + ["--server", "http://127.0.0.1:9"])
            #expect(outcome.status == Exit.usage, "\(outcome)")
            #expect(outcome.output.isEmpty, "usage errors go to stderr")
        }

        @Test("no server, or a server URL that is not http(s), is a usage error")
        func missingOrBadServer() async throws {
            var cli = try CLIProcess()
            defer { cli.remove() }
            cli.environment["APP_SERVER_URL"] = nil
            let none = try await cli.run("app-member", ["whoami"])
            #expect(none.status == Exit.usage, "\(none)")
            #expect(none.errorOutput.contains("APP_SERVER_URL"))
            let bad = try await cli.run("app-admin", ["reports", "--server", "ftp://example.com"])
            #expect(bad.status == Exit.usage, "\(bad)")
        }

        @Test("sign-in without credentials and without a terminal stops at once instead of asking")
        func signInWithoutCredentials() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-member", ["sign-in", "--server", "http://127.0.0.1:9"] + cli.fileStore(), timeout: 20)
            #expect(outcome.status == Exit.usage, "\(outcome)")
            #expect(!outcome.timedOut)
            #expect(outcome.errorOutput.contains("APP_EMAIL"))
        }

        @Test("--help lists the exit codes, and asking for help succeeds")
        func helpDocumentsExitCodes() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            for program in ["app-member", "app-admin"] {
                let outcome = try await cli.run(program, ["--help"])
                #expect(outcome.status == Exit.ok, "\(outcome)")
                for code in ["64", "65", "66", "67", "68", "69"] {
                    #expect(outcome.output.contains("  \(code) "), "\(program) --help should document exit code \(code)")
                }
            }
        }
    }
}
