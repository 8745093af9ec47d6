import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import OAuthSignIn
import Testing

/// A program the app starts while the browser flow listens (the browser it opens, say) must
/// not inherit the listener's descriptors: it would keep the port open after the flow closed
/// it, and a later connection there would wait in its backlog.
@Suite("The loopback listener's descriptors stay out of programs started meanwhile")
struct LoopbackListenerInheritanceTests {
    @Test("a program started while the listener waits does not keep its port open once the listener closes")
    func childDoesNotKeepThePortOpen() async throws {
        let listener = try LoopbackListener()
        let wait = Task { try await listener.waitForCallback(timeout: .seconds(10)) }
        // A plain posix_spawn, as `system` or a C library would: every descriptor not marked
        // close-on-exec goes to the child.
        let child = try Self.spawn(["/bin/sleep", "30"])
        defer { kill(child, SIGKILL); var status: Int32 = 0; waitpid(child, &status, 0) }
        try await Task.sleep(for: .milliseconds(100))   // the child has run exec
        listener.close()
        _ = try? await wait.value
        #expect(await RawLoopbackClient.refusesConnections(port: listener.port))
    }

    static func spawn(_ arguments: [String]) throws -> pid_t {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn: \(String(cString: strerror(spawned)))")
        return pid
    }
}
