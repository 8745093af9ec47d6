import AppSDKHarness
import Foundation
import Testing

/// The PostgreSQL the `--store postgres` tests use: `APP_POSTGRES_URL`
/// (`postgres://user:password@host:port/database`; scripts/test starts one).
enum PostgresEnvironment {
    static let url: String? = {
        guard let value = ProcessInfo.processInfo.environment["APP_POSTGRES_URL"], !value.isEmpty else { return nil }
        return value
    }()

    /// The URL's password: no output may contain it.
    static func password() throws -> String {
        guard let url, let password = URLComponents(string: url)?.password, !password.isEmpty else {
            throw TestSetupError("APP_POSTGRES_URL has no password: the test could not tell whether it is printed")
        }
        return password
    }

    /// `postgres://user@host:port/database`: how the programs name the database.
    static func redacted() throws -> String {
        guard let url, let components = URLComponents(string: url), let user = components.user, let host = components.host else {
            throw TestSetupError("APP_POSTGRES_URL is not a postgres://user:password@host:port/database URL")
        }
        return "postgres://\(user)@\(host):\(components.port ?? 5432)\(components.path)"
    }

    /// The same URL with another password.
    static func withPassword(_ password: String) throws -> String {
        guard let url, var components = URLComponents(string: url) else { throw TestSetupError("APP_POSTGRES_URL is not set") }
        components.password = password
        guard let text = components.string else { throw TestSetupError("cannot rebuild APP_POSTGRES_URL") }
        return text
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with a live server and a live PostgreSQL.
    static var livePostgres: Self {
        .enabled(if: LiveServerEnvironment.serverURL != nil && PostgresEnvironment.url != nil,
                 "APP_SERVER_URL or APP_POSTGRES_URL is not set: this test needs a live server and PostgreSQL (scripts/test starts both)")
    }
}

extension CLIProcess {
    /// Arguments for the postgres store's row `account` (the database from `APP_DATABASE_URL`,
    /// see ``postgresEnvironment``).
    func postgresStore(account: String) -> [String] {
        ["--store", "postgres", "--account", account]
    }

    /// The database URL (from the environment, as the help recommends) and the passphrase.
    static func postgresEnvironment(passphrase: String = "postgres passphrase") -> [String: String] {
        ["APP_DATABASE_URL": PostgresEnvironment.url ?? "", "APP_STORE_PASSPHRASE": passphrase]
    }

    /// An account name no other run uses (the database outlives the test).
    static func uniqueAccount(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())"
    }
}

extension CLITests {
    /// `--store postgres`: the session in a PostgreSQL row that several machines can share.
    @Suite("--store postgres keeps the session in PostgreSQL")
    struct PostgresStoreTests {
        @Test("a session started in one run is used by the next; another --account is independent; sign-out clears it", .livePostgres)
        func sessionAcrossRuns() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let (kim, other) = (CLIProcess.uniqueAccount("kim"), CLIProcess.uniqueAccount("other"))
            let env = CLIProcess.postgresEnvironment()

            let email = try await cli.signUp(cli.postgresStore(account: kim), environment: env)
            let whoami = try await cli.run("app-member", ["whoami", "--json"] + cli.postgresStore(account: kim), environment: env)
            #expect(whoami.status == Exit.ok, "\(whoami)")
            let member = try JSONSerialization.jsonObject(with: Data(whoami.output.utf8)) as? [String: Any]
            #expect(member?["email"] as? String == email, "\(whoami)")

            // The other account's row is empty until it signs in, and then holds its own member.
            let empty = try await cli.run("app-member", ["whoami"] + cli.postgresStore(account: other), environment: env)
            #expect(empty.status == Exit.notSignedIn, "\(empty)")
            let anonymous = try await cli.run("app-member", ["sign-in", "--anonymous", "--json"] + cli.postgresStore(account: other),
                                              environment: env)
            #expect(anonymous.status == Exit.ok, "\(anonymous)")
            let otherWhoami = try await cli.run("app-member", ["whoami", "--json"] + cli.postgresStore(account: other), environment: env)
            #expect(otherWhoami.status == Exit.ok, "\(otherWhoami)")
            let otherMember = try JSONSerialization.jsonObject(with: Data(otherWhoami.output.utf8)) as? [String: Any]
            #expect(otherMember?["id"] != nil && otherMember?["id"] as? String != member?["id"] as? String, "\(otherWhoami)")
            #expect(otherMember?["email"] == nil, "anonymous: \(otherWhoami)")

            // The account from APP_STORE_ACCOUNT and the store from APP_STORE, the URL as a flag.
            let fromVariables = try await cli.run(
                "app-member", ["whoami", "--json", "--database-url", PostgresEnvironment.url ?? ""],
                environment: ["APP_STORE": "postgres", "APP_STORE_ACCOUNT": kim, "APP_STORE_PASSPHRASE": "postgres passphrase"]
            )
            #expect(fromVariables.status == Exit.ok, "\(fromVariables)")
            #expect(fromVariables.output.contains(email))

            // The admin program reads the same row (and refuses a member with 68, not a store error).
            let admin = try await cli.run("app-admin", ["reports"] + cli.postgresStore(account: kim), environment: env)
            #expect(admin.status == Exit.forbidden, "\(admin)")

            let signOut = try await cli.run("app-member", ["sign-out", "--json"] + cli.postgresStore(account: kim), environment: env)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            #expect(signOut.output.contains("\"wasSignedIn\" : true"), "\(signOut)")
            let after = try await cli.run("app-member", ["whoami"] + cli.postgresStore(account: kim), environment: env)
            #expect(after.status == Exit.notSignedIn, "\(after)")
            let stillOther = try await cli.run("app-member", ["whoami"] + cli.postgresStore(account: other), environment: env)
            #expect(stillOther.status == Exit.ok, "signing one account out leaves the other: \(stillOther)")
            let otherOut = try await cli.run("app-member", ["sign-out"] + cli.postgresStore(account: other), environment: env)
            #expect(otherOut.status == Exit.ok, "\(otherOut)")

            for outcome in [whoami, empty, anonymous, otherWhoami, fromVariables, admin, signOut, after, stillOther, otherOut] {
                #expect(!outcome.timedOut, "\(outcome)")
                #expect(!outcome.errorOutput.contains("shut down"), "the store's client is shut down only after the command: \(outcome)")
            }
        }

        @Test("the wrong passphrase for a row exits with 66 and leaves the row as it was", .livePostgres)
        func wrongPassphrase() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let account = CLIProcess.uniqueAccount("locked")
            try await cli.signUp(cli.postgresStore(account: account), environment: CLIProcess.postgresEnvironment(passphrase: "the right one"))
            let wrong = try await cli.run("app-member", ["whoami"] + cli.postgresStore(account: account),
                                          environment: CLIProcess.postgresEnvironment(passphrase: "a wrong one"))
            #expect(wrong.status == Exit.store, "\(wrong)")
            #expect(wrong.errorOutput.contains("account \(account)"), "\(wrong)")
            let right = try await cli.run("app-member", ["sign-out"] + cli.postgresStore(account: account),
                                          environment: CLIProcess.postgresEnvironment(passphrase: "the right one"))
            #expect(right.status == Exit.ok, "\(right)")
        }

        @Test("the database URL's password is printed by no run: --verbose, --json, a refresh, --help, a wrong password, no database",
              .livePostgres)
        func passwordNeverPrinted() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let password = try PostgresEnvironment.password()
            let database = try PostgresEnvironment.redacted()
            let account = CLIProcess.uniqueAccount("secret")
            let store = cli.postgresStore(account: account)
            let env = CLIProcess.postgresEnvironment()
            // The flag too, although the help recommends the variable: its value must not come back.
            let flag = ["--database-url", PostgresEnvironment.url ?? ""]
            var outcomes: [CLIProcess.Outcome] = []

            let signIn = try await cli.run("app-member", ["sign-in", "--anonymous", "--verbose", "--json"] + store + flag)
            outcomes.append(signIn)
            // No passphrase given: stops at once (66) and names the database, not the password.
            #expect(signIn.status == Exit.store, "\(signIn)")
            #expect(signIn.errorOutput.contains(database), "\(signIn)")
            #expect(signIn.errorOutput.contains("APP_STORE_PASSPHRASE"), "\(signIn)")

            let started = try await cli.run("app-member", ["sign-in", "--anonymous", "--verbose", "--json"] + store + flag, environment: env)
            #expect(started.status == Exit.ok, "\(started)")
            #expect(started.errorOutput.contains(database), "--verbose names the database: \(started)")
            outcomes.append(started)
            for arguments in [["whoami", "--verbose", "--json"], ["whoami", "--verbose"], ["posts", "list", "--verbose", "--json"],
                              ["posts", "show", "999999999", "--verbose"]] {
                outcomes.append(try await cli.run("app-member", arguments + store, environment: env))
                outcomes.append(try await cli.run("app-member", arguments + store + flag, environment: ["APP_STORE_PASSPHRASE": "postgres passphrase"]))
            }
            outcomes.append(try await cli.run("app-admin", ["reports", "--verbose"] + store, environment: env))
            if LiveServerEnvironment.hasTestMode {
                // A refresh, with its --verbose notes, saved into the row.
                try await TestModeServer.expireAccessTokens()
                let refreshed = try await cli.run("app-member", ["whoami", "--verbose", "--json"] + store, environment: env)
                #expect(refreshed.status == Exit.ok, "\(refreshed)")
                #expect(refreshed.errorOutput.contains("refreshed"), "\(refreshed)")
                outcomes.append(refreshed)
            }
            for program in ["app-member", "app-admin"] {
                let help = try await cli.run(program, ["whoami", "--help"] + store + flag, environment: env)
                #expect(help.output.contains("--database-url") && help.output.contains("APP_DATABASE_URL"), "\(help)")
                outcomes.append(help)
            }

            // A wrong password in the URL: the database refuses the login.
            let wrongPassword = "not-the-password-8131"
            let wrongURL = try PostgresEnvironment.withPassword(wrongPassword)
            let refused = try await cli.run("app-member", ["whoami", "--verbose", "--timeout", "3"] + store,
                                            environment: env.merging(["APP_DATABASE_URL": wrongURL]) { _, new in new }, timeout: 40)
            #expect([Exit.store, Exit.server].contains(refused.status), "\(refused)")
            #expect(refused.errorOutput.contains(database), "the message names the database: \(refused)")
            #expect(refused.errorOutput.contains("refused the login"), "the message says the login was refused: \(refused)")
            #expect(!refused.output.contains(wrongPassword) && !refused.errorOutput.contains(wrongPassword), "\(refused)")
            outcomes.append(refused)
            let refusedFlag = try await cli.run("app-member", ["sign-in", "--anonymous", "--verbose", "--timeout", "3", "--database-url", wrongURL] + store,
                                                environment: ["APP_STORE_PASSPHRASE": "postgres passphrase"], timeout: 40)
            #expect([Exit.store, Exit.server].contains(refusedFlag.status), "\(refusedFlag)")
            #expect(!refusedFlag.output.contains(wrongPassword) && !refusedFlag.errorOutput.contains(wrongPassword), "\(refusedFlag)")
            outcomes.append(refusedFlag)

            // Nobody listening on the port: the same, with the real password in the URL.
            var unreachable = try #require(URLComponents(string: PostgresEnvironment.url ?? ""))
            unreachable.port = 9
            let down = try await cli.run("app-member", ["whoami", "--verbose", "--timeout", "3"] + store,
                                         environment: env.merging(["APP_DATABASE_URL": unreachable.string ?? ""]) { _, new in new }, timeout: 40)
            #expect([Exit.store, Exit.server].contains(down.status), "\(down)")
            #expect(down.errorOutput.contains(":9/"), "the message names the database: \(down)")
            #expect(down.seconds < 30, "\(down)")
            outcomes.append(down)

            let signOut = try await cli.run("app-member", ["sign-out", "--verbose", "--json"] + store, environment: env)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            outcomes.append(signOut)

            #expect(outcomes.count > 12)
            for outcome in outcomes {
                #expect(!outcome.output.contains(password), "the database password on stdout: exit \(outcome.status)")
                #expect(!outcome.errorOutput.contains(password), "the database password on stderr: exit \(outcome.status)")
                #expect(!outcome.output.contains("postgres passphrase") && !outcome.errorOutput.contains("postgres passphrase"))
                #expect(!outcome.timedOut, "\(outcome)")
            }
        }

        @Test("--store postgres without a database URL is a usage error that names --database-url and APP_DATABASE_URL")
        func missingDatabaseURL() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let flag = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9", "--store", "postgres"],
                                         environment: ["APP_STORE_PASSPHRASE": "x"])
            let variable = try await cli.run("app-admin", ["reports", "--server", "http://127.0.0.1:9"],
                                             environment: ["APP_STORE": "postgres"])
            for outcome in [flag, variable] {
                #expect(outcome.status == Exit.usage, "\(outcome)")
                #expect(outcome.output.isEmpty, "\(outcome)")
                #expect(outcome.errorOutput.contains("--database-url") && outcome.errorOutput.contains("APP_DATABASE_URL"), "\(outcome)")
            }
        }

        @Test("a database URL that cannot be used is a usage error that does not quote it")
        func badDatabaseURL() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            for url in ["mysql://kim:hunter2-secret@127.0.0.1/db", "postgres://kim:hunter2-secret@127.0.0.1/db?sslmode=sometimes",
                        "postgres://kim:hunter2-secret@/db"] {
                let outcome = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9", "--store", "postgres"],
                                                environment: ["APP_DATABASE_URL": url, "APP_STORE_PASSPHRASE": "x"])
                #expect(outcome.status == Exit.usage, "\(url): \(outcome)")
                #expect(!outcome.errorOutput.contains("hunter2") && !outcome.output.contains("hunter2"), "\(outcome)")
            }
            let emptyAccount = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:9", "--store", "postgres", "--account", ""],
                                                 environment: ["APP_DATABASE_URL": "postgres://kim:hunter2-secret@127.0.0.1/db"])
            #expect(emptyAccount.status == Exit.usage, "\(emptyAccount)")
            #expect(!emptyAccount.errorOutput.contains("hunter2"), "\(emptyAccount)")
        }
    }
}
