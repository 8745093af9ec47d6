public import Foundation

/// A helper program the tests spawn (a probe or a front end built beside the test binary),
/// and the outcome of running it. Shared by the test targets of the SDK, the server and the
/// front ends.
public struct ChildProcess {
    /// How a finished child ended and what it printed.
    public struct Outcome: Sendable {
        /// The exit status, or the signal number when it was killed.
        public var status: Int32
        /// Whether a signal ended it.
        public var wasKilled: Bool
        /// Everything it wrote to stdout.
        public var output: String
        /// Everything it wrote to stderr.
        public var errorOutput: String
    }

    /// A program that could not be found next to the test binary.
    public struct NotFound: Error, CustomStringConvertible, LocalizedError {
        /// The program's name.
        public let name: String
        /// The paths that were tried.
        public let searched: [String]
        /// How to build the program (or where else it may be).
        public let hint: String
        /// Says what was searched and how to build the program.
        public var description: String {
            "\(name) not found (\(hint)); searched: \(searched.joined(separator: ", "))"
        }
        /// The same as ``description``.
        public var errorDescription: String? { description }
    }

    /// The running process.
    public let process: Process
    /// Its stdout.
    public let output: Pipe
    /// Its stderr.
    public let errorOutput: Pipe

    /// Finds the executable `name` that `swift build` put in the same build folder as the
    /// test binary. Throws (failing the test, never skipping it) when it is not there.
    /// - Parameters:
    ///   - name: The executable's name.
    ///   - folderVariable: An environment variable that may name the folder to look in first
    ///     (e.g. `APP_CLI_BIN_DIR`).
    ///   - hint: How to build the program, for the error.
    public static func locate(_ name: String, folderVariable: String? = nil,
                              hint: String? = nil) throws -> URL {
        var folders: [URL] = []
        if let folderVariable, let folder = ProcessInfo.processInfo.environment[folderVariable], !folder.isEmpty {
            folders.append(URL(fileURLWithPath: folder))
        }
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        #endif
        // On Apple platforms the tests run inside `xctest` or a helper; the .xctest bundle
        // sits in the build folder, beside the executables.
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
                let candidate = folder.appendingPathComponent(name)
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw NotFound(name: name, searched: searched, hint: hint ?? "build it with `swift build --product \(name)`")
    }

    /// Starts `executable` with `arguments`, stdin from /dev/null, and the test's
    /// environment plus `environment`.
    public static func start(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return ChildProcess(process: process, output: output, errorOutput: errorOutput)
    }

    /// Reads everything the child prints, waits for it to end, and returns the outcome.
    /// Blocks the calling thread.
    public func finish() -> Outcome {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            wasKilled: process.terminationReason == .uncaughtSignal,
            output: String(decoding: out, as: UTF8.self),
            errorOutput: String(decoding: err, as: UTF8.self)
        )
    }

    /// Starts one child per argument list at once, waits on a thread of its own (not the
    /// cooperative pool) for all of them, and returns their outcomes in order.
    public static func runAll(_ executable: URL, _ argumentLists: [[String]],
                              environment: [String: String] = [:]) async throws -> [Outcome] {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let children = try argumentLists.map { try start(executable, $0, environment: environment) }
                    continuation.resume(returning: children.map { $0.finish() })
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
