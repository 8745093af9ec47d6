import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds and runs the `TokenStoreProbe` executable (Tests/TokenStoreProbe), which
/// `swift test` builds beside the test bundle because the test target depends on it.
enum TokenStoreProbeRunner {
    struct Outcome: Sendable {
        var status: Int32
        var wasKilled: Bool
        var output: String
        var errorOutput: String
    }

    /// The probe's location; throws (failing the test, never skipping it) when it cannot be found.
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["TOKEN_STORE_PROBE"] {
            return URL(fileURLWithPath: override)
        }
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        #endif
        // On Apple platforms the tests run inside `xctest` or a helper; the .xctest bundle is
        // in the build folder, beside the probe.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let main = Bundle.main.executableURL {
            folders.append(main.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        var searched: [String] = []
        for start in folders {
            var folder = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("TokenStoreProbe")
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw TestFailure(
            "TokenStoreProbe executable not found (build it with `swift build --product TokenStoreProbe`, "
                + "or set TOKEN_STORE_PROBE); searched: \(searched.joined(separator: ", "))"
        )
    }

    /// Starts one probe per argument list, waits for all of them and returns their outcomes.
    static func run(_ argumentLists: [[String]], environment: [String: String] = [:]) async throws -> [Outcome] {
        let executable = try executable()
        return try await TokenStoreTesting.blocking {
            let processes = try argumentLists.map { arguments in
                try start(executable, arguments, environment: environment)
            }
            return processes.map { finish($0) }
        }
    }

    /// Starts a probe in `save-loop` mode, waits for it to print "ready", lets it save for
    /// up to `maximumDelay`, kills it with SIGKILL, and returns its outcome.
    static func runAndKill(_ arguments: [String], environment: [String: String] = [:], maximumDelay: Duration) async throws -> Outcome {
        let executable = try executable()
        let delay = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) / 1e18
        return try await TokenStoreTesting.blocking {
            let started = try start(executable, arguments, environment: environment)
            let ready = started.output.fileHandleForReading.readData(ofLength: 6)
            guard String(decoding: ready, as: UTF8.self) == "ready\n" else {
                let outcome = finish(started)
                throw TestFailure("the probe did not start saving: status \(outcome.status), \(outcome.errorOutput)")
            }
            usleep(useconds_t(Double.random(in: 0...delay) * 1_000_000))
            kill(started.process.processIdentifier, SIGKILL)
            return finish(started)
        }
    }

    private struct Started {
        var process: Process
        var output: Pipe
        var errorOutput: Pipe
    }

    private static func start(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Started {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        return Started(process: process, output: output, errorOutput: errorOutput)
    }

    private static func finish(_ started: Started) -> Outcome {
        let output = started.output.fileHandleForReading.readDataToEndOfFile()
        let errorOutput = started.errorOutput.fileHandleForReading.readDataToEndOfFile()
        started.process.waitUntilExit()
        return Outcome(
            status: started.process.terminationStatus,
            wasKilled: started.process.terminationReason == .uncaughtSignal,
            output: String(decoding: output, as: UTF8.self),
            errorOutput: String(decoding: errorOutput, as: UTF8.self)
        )
    }
}
