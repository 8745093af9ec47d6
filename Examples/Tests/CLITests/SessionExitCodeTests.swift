import AppSDKTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            let outcome = try await cli.run("app-member", ["whoami", "--server", "http://127.0.0.1:\(try Self.closedPort())"] + cli.fileStore(),
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

        /// A loopback port nothing listens on: bound to find a free one, then closed.
        static func closedPort() throws -> Int {
            #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw TestSetupError("socket() failed") }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard bound else { throw TestSetupError("bind() failed") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
