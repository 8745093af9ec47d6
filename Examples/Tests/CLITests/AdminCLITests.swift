import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    @Suite("The admin program")
    struct AdminCLITests {
        @Test("a member using app-admin is refused with 68", .liveServer)
        func memberIsForbidden() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            for arguments in [["reports"], ["remove", "post", "1"]] {
                let outcome = try await cli.run("app-admin", arguments + cli.fileStore())
                #expect(outcome.status == Exit.forbidden, "\(arguments): \(outcome)")
                #expect(outcome.output.isEmpty)
                #expect(outcome.errorOutput.contains("not an admin"))
            }
        }

        @Test("app-admin sign-in refuses a member and leaves no session behind", .liveServer)
        func memberCannotSignIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let email = try await cli.signUp(cli.fileStore())
            let outcome = try await cli.run("app-admin", ["sign-in"] + cli.fileStore("admin.json"),
                                            environment: ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password])
            #expect(outcome.status == Exit.forbidden, "\(outcome)")
            let after = try await cli.run("app-admin", ["whoami"] + cli.fileStore("admin.json"))
            #expect(after.status == Exit.notSignedIn, "\(after)")
        }

        @Test("app-admin sign-in as a member on the member's own store keeps the member's session", .liveServer)
        func refusedSignInKeepsStore() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let email = try await cli.signUp(cli.fileStore())
            let before = try cli.storedTokens()
            let outcome = try await cli.run("app-admin", ["sign-in"] + cli.fileStore(),
                                            environment: ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password])
            #expect(outcome.status == Exit.forbidden, "\(outcome)")
            #expect(try cli.storedTokens() == before)
            #expect(try await cli.run("app-member", ["whoami"] + cli.fileStore()).status == Exit.ok)
        }

        @Test("a member's 403 from the server (deleting someone else's post) exits with 68", .liveServer)
        func serverForbidden() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore("author.json"))
            let created = try await cli.run("app-member", ["posts", "create", "--json", "mine"] + cli.fileStore("author.json"))
            let post = try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any]
            let id = try #require(post?["id"] as? Int)
            try await cli.signUp(cli.fileStore("other.json"))
            let outcome = try await cli.run("app-member", ["posts", "delete", "\(id)"] + cli.fileStore("other.json"))
            #expect(outcome.status == Exit.forbidden, "\(outcome)")
        }

        @Test("an admin lists reports and removes the reported post", .adminAccount)
        func adminRemovesReportedPost() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            let created = try await cli.run("app-member", ["posts", "create", "--json", "spam spam spam"] + cli.fileStore())
            let post = try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any]
            let id = try #require(post?["id"] as? Int)
            let reported = try await cli.run("app-member", ["report", "post", "\(id)", "spam"] + cli.fileStore())
            #expect(reported.status == Exit.ok, "\(reported)")

            try await cli.signInAdmin(cli.fileStore("admin.json"))
            let reports = try await cli.run("app-admin", ["reports", "--json", "--page-size", "100"] + cli.fileStore("admin.json"))
            #expect(reports.status == Exit.ok, "\(reports)")
            let page = try JSONSerialization.jsonObject(with: Data(reports.output.utf8)) as? [String: Any]
            let items = try #require(page?["items"] as? [[String: Any]])
            #expect(items.contains { $0["targetId"] as? Int == id && $0["targetType"] as? String == "post" })

            let removed = try await cli.run("app-admin", ["remove", "post", "\(id)", "--json"] + cli.fileStore("admin.json"))
            #expect(removed.status == Exit.ok, "\(removed)")
            let shown = try await cli.run("app-member", ["posts", "show", "\(id)"] + cli.fileStore())
            #expect(shown.status == Exit.rejected, "the removed post is gone: \(shown)")
        }
    }
}
