import Foundation

/// Finds and runs the `SessionProbe` executable, which `swift test` builds beside the test
/// binary because SlowTests depends on it. A missing probe fails the test; it never skips.
enum SessionProbeRunner {
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "SessionProbe not found (swift build --product SessionProbe); searched \(searched)" }
    }

    static func executable() throws -> URL {
        var folders: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        var searched: [String] = []
        for start in folders {
            var folder = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("SessionProbe")
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw NotFound(searched: searched)
    }

    /// Starts one probe per argument list at once and waits for all of them.
    static func run(_ argumentLists: [[String]]) async throws -> [Outcome] {
        let executable = try executable()
        var running: [(Process, Pipe, Pipe)] = []
        for arguments in argumentLists {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            running.append((process, output, errors))
        }
        var outcomes: [Outcome] = []
        for (process, output, errors) in running {
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            outcomes.append(Outcome(status: process.terminationStatus,
                                    output: String(decoding: out, as: UTF8.self),
                                    errorOutput: String(decoding: err, as: UTF8.self)))
        }
        return outcomes
    }
}
