import AppSDKHarness
import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    @Suite("Not signed in (65) and server errors (67)")
    struct SessionExitCodeTests {
        @Test("a command with an empty store says not signed in, without calling the server")
        func notSignedIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-member", ["posts", "list", "--server", "http://127.0.0.1:9"] + cli.fileStore())
            #expect(outcome.status == Exit.notSignedIn, "\(outcome)")
            #expect(outcome.output.isEmpty)
            #expect(outcome.errorOutput.contains("not signed in"))
        }

        @Test("the memory store starts empty: without APP_EMAIL/APP_PASSWORD a command is not signed in")
        func memoryStoreWithoutCredentials() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-member", ["whoami", "--store", "memory", "--server", "http://127.0.0.1:9"])
            #expect(outcome.status == Exit.notSignedIn, "\(outcome)")
        }

        @Test("a wrong password is refused with 65", .liveServer)
        func wrongPassword() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let email = try await cli.signUp(cli.fileStore())
            let outcome = try await cli.run("app-member", ["sign-in"] + cli.fileStore("other.json"),
                                            environment: ["APP_EMAIL": email, "APP_PASSWORD": "not-the-password"])
            #expect(outcome.status == Exit.notSignedIn, "\(outcome)")
        }

        @Test("after sign-out the next command is not signed in", .liveServer)
        func signedOut() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            #expect(try await cli.run("app-member", ["sign-out"] + cli.fileStore()).status == Exit.ok)
            let outcome = try await cli.run("app-member", ["whoami"] + cli.fileStore())
            #expect(outcome.status == Exit.notSignedIn, "\(outcome)")
        }

        @Test("a signed-in command against a server that is not there is a server error", .liveServer)
        func unreachableServer() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            let closed = try ClosedLoopbackPort()
            defer { closed.release() }
            let outcome = try await cli.run("app-member", ["whoami", "--server", closed.baseURL] + cli.fileStore(),
                                            timeout: 40)
            #expect(outcome.status == Exit.server, "\(outcome)")
            #expect(outcome.output.isEmpty)
        }

        @Test("content that does not exist is rejected with 69", .liveServer)
        func notFound() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try await cli.signUp(cli.fileStore())
            let outcome = try await cli.run("app-member", ["posts", "show", "999999999"] + cli.fileStore())
            #expect(outcome.status == Exit.rejected, "\(outcome)")
        }
    }
}
