import AppSDKTesting
import Foundation
import Testing

extension CLITests {
    /// `--timeout` is bounded before any request: no server needed (a loopback one checks
    /// that nothing reached it).
    @Suite("--timeout is a number of seconds between zero and a day")
    struct TimeoutFlagTests {
        @Test("an absurd --timeout is a usage error (64) that names the value, and nothing is sent",
              arguments: [("1e18", "1e+18"), ("86401", "86401.0"), ("inf", "inf"), ("nan", "nan"), ("0", "0.0"), ("-5", "-5.0")])
        func absurdTimeouts(value: String, shown: String) async throws {
            let http = try LoopbackHTTPServer { _ in .json(503, #"{"error":{"code":"unavailable","message":"later"}}"#) }
            defer { http.stop() }
            let cli = try CLIProcess()
            defer { cli.remove() }
            for transport in ["urlsession", "async-http-client"] {
                let outcome = try await cli.run("app-member", ["sign-in", "--anonymous", "--store", "memory", "--server", http.baseURL,
                                                               "--transport", transport, "--timeout=\(value)"], timeout: 30)
                #expect(outcome.status == Exit.usage, "\(outcome)")
                #expect(outcome.errorOutput.contains("--timeout") && outcome.errorOutput.contains(shown), "\(outcome)")
            }
            #expect(http.requests.isEmpty, "a request was sent: \(http.requests.map(\.target))")
        }

        @Test("a --timeout of a day, or a fraction of a second, is accepted: the request goes out")
        func sensibleTimeouts() async throws {
            let http = try LoopbackHTTPServer { _ in .json(503, #"{"error":{"code":"unavailable","message":"later"}}"#) }
            defer { http.stop() }
            let cli = try CLIProcess()
            defer { cli.remove() }
            for value in ["86400", "0.5"] {
                let outcome = try await cli.run("app-member", ["sign-in", "--anonymous", "--store", "memory", "--server", http.baseURL,
                                                               "--timeout", value], timeout: 30)
                #expect(outcome.status != Exit.usage && outcome.status != Exit.ok, "\(outcome)")
            }
            #expect(http.requests.count == 2)
        }
    }
}
