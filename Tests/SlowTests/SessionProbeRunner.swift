import Foundation
import AppSDKTesting

/// Runs the `SessionProbe` executable, which `swift test` builds beside the test binary
/// because SlowTests depends on it. A missing probe fails the test; it never skips.
enum SessionProbeRunner {
    /// Starts one probe per argument list at once and waits for all of them.
    static func run(_ argumentLists: [[String]]) async throws -> [ChildProcess.Outcome] {
        try await ChildProcess.runAll(ChildProcess.locate("SessionProbe"), argumentLists)
    }
}
