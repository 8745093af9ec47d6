import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    @Suite("Two programs, one store")
    struct SharedStoreTests {
        @Test("app-member and app-admin on one store at once, after the access token expired: they take turns, the session survives",
              .adminAccount, .testMode)
        func twoProgramsTakeTurns() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let passphrase = ["APP_STORE_PASSPHRASE": "shared by two programs"]
            let store = cli.encryptedStore("shared.enc")
            let outcome = try await cli.run("app-admin", ["sign-in"] + store, environment: passphrase.merging([
                "APP_EMAIL": LiveServerEnvironment.adminEmail ?? "", "APP_PASSWORD": LiveServerEnvironment.adminPassword ?? "",
            ]) { _, new in new })
            try #require(outcome.status == Exit.ok, "\(outcome)")

            // After the server expired the token, exactly one of the two programs refreshes
            // and the other takes the new token from the store (the SDK's leeway is at most
            // half a token's lifetime, so even the test server's 5-second tokens count as
            // fresh right after a refresh). Programs that did not take turns would refresh
            // twice, or present one refresh token twice.
            for round in 1...3 {
                try await TestModeServer.expireAccessTokens()
                let before = try await TestModeServer.refreshCalls()
                async let member = cli.run("app-member", ["posts", "list", "--page-size", "1"] + store, environment: passphrase)
                async let admin = cli.run("app-admin", ["reports", "--page-size", "1"] + store, environment: passphrase)
                let (memberOutcome, adminOutcome) = try await (member, admin)
                #expect(memberOutcome.status == Exit.ok, "round \(round): \(memberOutcome)")
                #expect(adminOutcome.status == Exit.ok, "round \(round): \(adminOutcome)")
                let refreshes = try await TestModeServer.refreshCalls() - before
                #expect(refreshes == 1, "round \(round): one program refreshes, the other uses its tokens from the store")
            }
            let after = try await cli.run("app-admin", ["whoami", "--json"] + store, environment: passphrase)
            #expect(after.status == Exit.ok, "the session survived the concurrent refreshes: \(after)")
            #expect(try await cli.run("app-admin", ["sign-out"] + store, environment: passphrase).status == Exit.ok)
        }
    }
}
