import Foundation
import AppSDKHarness
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds and runs the `TokenStoreProbe` executable (Tests/TokenStoreProbe), which
/// `swift test` builds beside the test bundle because the test target depends on it.
enum TokenStoreProbeRunner {
    typealias Outcome = ChildProcess.Outcome

    /// The probe's location; throws (failing the test, never skipping it) when it cannot be found.
    static func executable() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["TOKEN_STORE_PROBE"] {
            return URL(fileURLWithPath: override)
        }
        return try ChildProcess.locate("TokenStoreProbe")
    }

    /// Starts one probe per argument list, waits for all of them and returns their outcomes.
    static func run(_ argumentLists: [[String]], environment: [String: String] = [:]) async throws -> [Outcome] {
        try await ChildProcess.runAll(executable(), argumentLists, environment: environment)
    }

    /// Starts a probe in `save-loop` mode, waits for it to print "ready", lets it save for
    /// up to `maximumDelay`, kills it with SIGKILL, and returns its outcome.
    static func runAndKill(_ arguments: [String], environment: [String: String] = [:], maximumDelay: Duration) async throws -> Outcome {
        let executable = try executable()
        let delay = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) / 1e18
        return try await TokenStoreTesting.blocking {
            let started = try ChildProcess.start(executable, arguments, environment: environment)
            let ready = started.output.fileHandleForReading.readData(ofLength: 6)
            guard String(decoding: ready, as: UTF8.self) == "ready\n" else {
                let outcome = started.finish()
                throw TestFailure("the probe did not start saving: status \(outcome.status), \(outcome.errorOutput)")
            }
            usleep(useconds_t(Double.random(in: 0...delay) * 1_000_000))
            kill(started.process.processIdentifier, SIGKILL)
            return started.finish()
        }
    }
}
