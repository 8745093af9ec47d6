import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    @Suite("--store postgres: a row bound to its account, a rolled-back row, a read-only database")
    struct PostgresRowTests {
        @Test("a row copied from another account (same passphrase) is refused with 66: the program never acts as that account's member",
              .livePostgres)
        func rowCopiedFromAnotherAccount() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let env = CLIProcess.postgresEnvironment()
            let (kim, lee) = (CLIProcess.uniqueAccount("kim"), CLIProcess.uniqueAccount("lee"))
            for account in [kim, lee] {
                let signIn = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.postgresStore(account: account), environment: env)
                try #require(signIn.status == Exit.ok, "\(signIn)")
            }
            let kimsMember = try await cli.run("app-member", ["whoami", "--json"] + cli.postgresStore(account: kim), environment: env)
            let kimsID = try #require((try JSONSerialization.jsonObject(with: Data(kimsMember.output.utf8)) as? [String: Any])?["id"] as? String)

            try PostgresShell.setRow(lee, hex: try #require(try PostgresShell.rowHex(kim).first))
            let copied = try PostgresShell.rowHex(lee)
            let whoami = try await cli.run("app-member", ["whoami", "--json"] + cli.postgresStore(account: lee), environment: env)
            #expect(whoami.status == Exit.store, "\(whoami)")
            #expect(!whoami.output.contains(kimsID), "acted as the other account's member: \(whoami)")
            #expect(whoami.errorOutput.contains("account \(lee)"), "\(whoami)")
            #expect(try PostgresShell.rowHex(lee) == copied, "the row is left as it is")
            #expect(try await cli.run("app-member", ["whoami"] + cli.postgresStore(account: kim), environment: env).status == Exit.ok)
            _ = try await cli.run("app-member", ["sign-out"] + cli.postgresStore(account: kim), environment: env)
        }

        @Test("a row rolled back to an older one of the same account is accepted by the store, and the server's reuse detection then ends the session: the newest row stops working too",
              .livePostgres, .testMode)
        func rolledBackRowEndsTheSession() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let env = CLIProcess.postgresEnvironment()
            let account = CLIProcess.uniqueAccount("rollback")
            let store = cli.postgresStore(account: account)
            let signIn = try await cli.run("app-member", ["sign-in", "--anonymous"] + store, environment: env)
            try #require(signIn.status == Exit.ok, "\(signIn)")
            let oldest = try #require(try PostgresShell.rowHex(account).first)

            // Two refreshes: the oldest row's refresh token and its successor are both used.
            for round in 1...2 {
                try await TestModeServer.expireAccessTokens()
                let refreshed = try await cli.run("app-member", ["whoami"] + store, environment: env)
                try #require(refreshed.status == Exit.ok, "refresh \(round): \(refreshed)")
            }
            let newest = try #require(try PostgresShell.rowHex(account).first)
            #expect(newest != oldest)

            try PostgresShell.setRow(account, hex: oldest)
            try await TestModeServer.expireAccessTokens()
            let rolledBack = try await cli.run("app-member", ["whoami"] + store, environment: env)
            #expect(rolledBack.status == Exit.notSignedIn, "the old refresh token is reuse: \(rolledBack)")

            try PostgresShell.setRow(account, hex: newest)
            let restored = try await cli.run("app-member", ["whoami"] + store, environment: env)
            #expect(restored.status == Exit.notSignedIn, "the reuse revoked the whole session, the newest tokens too: \(restored)")
        }

        @Test("a read-only database (default_transaction_read_only): whoami reads, sign-in is a store error naming it, and sign-out still ends the session at the server and says the local copy stays",
              .livePostgres)
        func readOnlyDatabase() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let env = CLIProcess.postgresEnvironment()
            let account = CLIProcess.uniqueAccount("standby")
            let store = cli.postgresStore(account: account)
            // The tables exist before the role gets its rights (a first run creates them).
            let nobody = try await cli.run("app-member", ["whoami"] + store, environment: env)
            try #require(nobody.status == Exit.notSignedIn, "\(nobody)")

            let role = "ro_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
            let rolePassword = "ro-" + UUID().uuidString
            try PostgresShell.run("""
                CREATE ROLE \(role) LOGIN PASSWORD \(PostgresShell.literal(rolePassword));
                ALTER ROLE \(role) SET default_transaction_read_only = on;
                GRANT SELECT, INSERT, UPDATE, DELETE ON \(PostgresShell.table), \(PostgresShell.table)_unreadable TO \(role);
                GRANT USAGE ON SEQUENCE \(PostgresShell.table)_unreadable_id_seq TO \(role);
                """)
            defer { _ = try? PostgresShell.run("DROP OWNED BY \(role); DROP ROLE \(role);") }
            var components = try #require(URLComponents(string: PostgresEnvironment.url ?? ""))
            components.user = role
            components.password = rolePassword
            let readOnly = env.merging(["APP_DATABASE_URL": try #require(components.string)]) { _, new in new }
            #expect(try PostgresShell.run("SHOW default_transaction_read_only", user: role, password: rolePassword) == "on")

            // Right after the sign-in, so that the access token needs no refresh (whose new
            // tokens a read-only database could not keep).
            let signIn = try await cli.run("app-member", ["sign-in", "--anonymous"] + store, environment: env)
            try #require(signIn.status == Exit.ok, "\(signIn)")
            let whoami = try await cli.run("app-member", ["whoami"] + store, environment: readOnly)
            #expect(whoami.status == Exit.ok, "reads work: \(whoami)")
            let row = try PostgresShell.rowHex(account)

            let other = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.postgresStore(account: CLIProcess.uniqueAccount("standby")),
                                          environment: readOnly)
            #expect(other.status == Exit.store, "\(other)")
            #expect(other.errorOutput.contains("read-only"), "\(other)")

            let signOut = try await cli.run("app-member", ["sign-out", "--json"] + store, environment: readOnly)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            #expect(signOut.output.contains("\"serverConfirmed\" : true"), "\(signOut)")
            #expect(signOut.errorOutput.contains("the local copy stays") && signOut.errorOutput.contains("read-only"), "\(signOut)")
            #expect(!signOut.errorOutput.contains("a bug"), "\(signOut)")
            #expect(try PostgresShell.rowHex(account) == row, "the row stays")

            // The server ended the session: the row that stayed no longer works.
            let after = try await cli.run("app-member", ["whoami"] + store, environment: env)
            #expect(after.status == Exit.notSignedIn, "\(after)")
            for outcome in [whoami, other, signOut, after] {
                #expect(!outcome.errorOutput.contains(rolePassword) && !outcome.output.contains(rolePassword))
            }
        }
    }
}
