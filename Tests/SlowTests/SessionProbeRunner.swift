import Foundation
import AppSDKHarness
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the `SessionProbe` executable, which `swift test` builds beside the test binary
/// because SlowTests depends on it. A missing probe fails the test; it never skips.
enum SessionProbeRunner {
    /// Starts one probe per argument list at once and waits for all of them.
    static func run(_ argumentLists: [[String]]) async throws -> [ChildProcess.Outcome] {
        try await ChildProcess.runAll(ChildProcess.locate("SessionProbe"), argumentLists)
    }

    /// Starts one probe and returns as soon as it runs, so that the test can kill it; a thread
    /// of its own (not the cooperative pool) waits for it to end.
    static func start(_ arguments: [String]) async throws -> StartedProbe {
        let executable = try ChildProcess.locate("SessionProbe")
        let (outcomes, sink) = AsyncStream<ChildProcess.Outcome>.makeStream()
        let processID: Int32 = try await withCheckedThrowingContinuation { started in
            Thread {
                let child: ChildProcess
                do {
                    child = try ChildProcess.start(executable, arguments)
                } catch {
                    sink.finish()
                    started.resume(throwing: error)
                    return
                }
                started.resume(returning: child.process.processIdentifier)
                sink.yield(child.finish())
                sink.finish()
            }.start()
        }
        return StartedProbe(processID: processID, outcomes: outcomes)
    }
}

/// A probe that ``SessionProbeRunner/start(_:)`` started and that may still run.
struct StartedProbe: Sendable {
    /// Its process id.
    let processID: Int32
    fileprivate let outcomes: AsyncStream<ChildProcess.Outcome>

    /// Ends it with SIGKILL: no cleanup, no `defer`, its connections closed by the kernel.
    func killWithSIGKILL() {
        kill(processID, SIGKILL)
    }

    /// Waits for it to end.
    func outcome() async throws -> ChildProcess.Outcome {
        guard let outcome = await outcomes.first(where: { _ in true }) else {
            throw TestSetupError("the SessionProbe (pid \(processID)) was never waited for")
        }
        return outcome
    }
}
