import Foundation
import NIOConcurrencyHelpers
import Testing

/// The `app-server` executable run as a child process under a lowered file descriptor limit
/// (`ulimit` in `bash`, then `exec`, so the process is the server itself).
final class ServerProcess {
    private let process: Process
    private let output = NIOLockedValueBox((stdout: Data(), stderr: Data()))

    /// The executable built beside the test bundle (`swift build --build-tests` builds both).
    static func executable() throws -> String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("app-server").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        Issue.record("no app-server executable near \(CommandLine.arguments[0]); build it first (swift build --build-tests)")
        throw POSIXError(.ENOENT)
    }

    /// Starts `app-server arguments…` after running `ulimit` with `limit` (e.g. `-n 256`).
    init(limit: String, arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit \(limit) && exec \"$0\" \"$@\"", try Self.executable()] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        stdout.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            output.withLockedValue { $0.stdout.append(data) }
        }
        stderr.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            output.withLockedValue { $0.stderr.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var stdout: String { output.withLockedValue { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { output.withLockedValue { String(decoding: $0.stderr, as: UTF8.self) } }
    var processIdentifier: Int32 { process.processIdentifier }

    /// Waits up to `timeout` seconds for the process to exit; its exit status, or `nil` if it still runs.
    func exitStatus(within timeout: Double) async throws -> Int32? {
        let start = Date()
        while process.isRunning, Date().timeIntervalSince(start) < timeout {
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Waits up to `timeout` seconds for the "listening" line; whether it came.
    func listening(within timeout: Double) async throws -> Bool {
        let start = Date()
        while process.isRunning, Date().timeIntervalSince(start) < timeout {
            if stdout.contains("app-server listening on http://127.0.0.1:") { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return stdout.contains("app-server listening on")
    }

    /// Stops the server (SIGTERM) and waits for it; its exit status.
    @discardableResult
    func stop() async throws -> Int32? {
        if process.isRunning { process.terminate() }
        return try await exitStatus(within: 10)
    }
}
