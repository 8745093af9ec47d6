import Foundation
import Testing

extension CLITests {
    @Suite("Two programs, one store")
    struct SharedStoreTests {
        /// The server's access-token lifetime when the test run says it (`scripts/test` sets
        /// `APP_ACCESS_TOKEN_LIFETIME`); `nil` means the server's default (900 s).
        static let accessTokenLifetime = ProcessInfo.processInfo.environment["APP_ACCESS_TOKEN_LIFETIME"].flatMap(Int.init)
        /// The SDK refreshes ahead when the access token expires within 60 s (its default leeway).
        static let sdkRefreshLeeway = 60

        @Test("app-member and app-admin on one store at once, after the access token expired: they take turns, the session survives",
              .liveTestMode)
        func twoProgramsTakeTurns() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let passphrase = ["APP_STORE_PASSPHRASE": "shared by two programs"]
            let store = cli.encryptedStore("shared.enc")
            let outcome = try await cli.run("app-admin", ["sign-in"] + store, environment: passphrase.merging([
                "APP_EMAIL": CLIEnvironment.adminEmail ?? "", "APP_PASSWORD": CLIEnvironment.adminPassword ?? "",
            ]) { _, new in new })
            try #require(outcome.status == Exit.ok, "\(outcome)")

            // A fresh token that lives longer than the leeway is used as it is, so after the
            // server expired it exactly one of the two programs refreshes and the other takes
            // the new token from the store. A server whose tokens live less than the leeway
            // makes the SDK refresh before every call; then the count is not one, but the
            // programs must still take turns: a refresh token presented twice would make the
            // server revoke the session (refresh_token_reused) and the next command fail.
            let expectsOneRefresh = (Self.accessTokenLifetime ?? 900) > Self.sdkRefreshLeeway + 30
            for round in 1...3 {
                try await TestModeServer.expireAccessTokens()
                let before = try await TestModeServer.refreshCalls()
                async let member = cli.run("app-member", ["posts", "list", "--page-size", "1"] + store, environment: passphrase)
                async let admin = cli.run("app-admin", ["reports", "--page-size", "1"] + store, environment: passphrase)
                let (memberOutcome, adminOutcome) = try await (member, admin)
                #expect(memberOutcome.status == Exit.ok, "round \(round): \(memberOutcome)")
                #expect(adminOutcome.status == Exit.ok, "round \(round): \(adminOutcome)")
                let refreshes = try await TestModeServer.refreshCalls() - before
                if expectsOneRefresh {
                    #expect(refreshes == 1, "round \(round): one program refreshes, the other uses its tokens from the store")
                } else {
                    #expect(refreshes >= 1, "round \(round): the expired token was refreshed")
                }
            }
            let after = try await cli.run("app-admin", ["whoami", "--json"] + store, environment: passphrase)
            #expect(after.status == Exit.ok, "the session survived the concurrent refreshes: \(after)")
            #expect(try await cli.run("app-admin", ["sign-out"] + store, environment: passphrase).status == Exit.ok)
        }
    }
}
