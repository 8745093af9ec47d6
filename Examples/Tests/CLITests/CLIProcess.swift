import AppSDKHarness
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `app-member` and `app-admin` executables as a script would: standard input
/// from /dev/null (never a terminal), a clean environment, output captured.
struct CLIProcess {
    struct Outcome: Sendable, CustomStringConvertible {
        let status: Int32
        let output: String
        let errorOutput: String
        let seconds: Double
        let timedOut: Bool
        /// When the program last wrote to stdout (the file's modification time), if it wrote.
        let outputWrittenAt: Date?

        var description: String {
            "exit \(status)\(timedOut ? " (timed out)" : "") after \(String(format: "%.1f", seconds)) s\nstdout: \(output)\nstderr: \(errorOutput)"
        }
    }

    /// A private folder (the store's default location, files the test writes).
    let folder: URL
    /// Variables set for every run, over a copy of the test's environment without any `APP_*`.
    var environment: [String: String]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        if let server = LiveServerEnvironment.serverURL { environment["APP_SERVER_URL"] = server }
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `program` with `arguments`; stops it after `timeout` seconds. `errorFile`, when
    /// given, is where its stderr goes while it runs (a test reads it as it grows).
    func run(_ program: String, _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil,
             timeout: Double = 60, errorFile: URL? = nil) async throws -> Outcome {
        let executable = try ChildProcess.locate(
            program, folderVariable: "APP_CLI_BIN_DIR", hint: "run `swift build` in Examples first, or set APP_CLI_BIN_DIR")
        let id = UUID().uuidString
        let outURL = folder.appendingPathComponent("\(id).out")
        let errURL = errorFile ?? folder.appendingPathComponent("\(id).err")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil) else {
            throw TestSetupError("cannot create output files in \(folder.path)")
        }
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        var inputURL = URL(fileURLWithPath: "/dev/null")
        if let stdin {
            inputURL = folder.appendingPathComponent("\(id).in")
            try Data(stdin.utf8).write(to: inputURL)
        }

        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APP_") }
        env.merge(environment) { _, new in new }
        env.merge(extra) { _, new in new }

        // posix_spawn and waitpid on a thread of its own, not Foundation's Process: its run()
        // crashed the test process (SIGSEGV in memcpy) when 4 tasks launched at once
        // (GlewlwydCLITests, 1 run in 3, with and without a lock around run()).
        let started = Date()
        let pid = try ChildProcess.spawn([executable.path] + arguments, environment: env, standardInput: inputURL.path,
                                         standardOutput: outURL.path, standardError: errURL.path)
        let watch = ExitWatch()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            // Still running after the timeout: end it (the outcome says it timed out).
            watch.killUnlessEnded(pid)
        }
        let termination = await withCheckedContinuation { (continuation: CheckedContinuation<ChildProcess.Termination, Never>) in
            Thread { continuation.resume(returning: ChildProcess.waitForExit(pid, beforeReaping: watch.markEnded)) }.start()
        }
        let seconds = Date().timeIntervalSince(started)
        return Outcome(
            status: termination.status,
            output: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            errorOutput: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            seconds: seconds,
            timedOut: termination.signal == SIGKILL && seconds >= timeout,
            outputWrittenAt: (try? FileManager.default.attributesOfItem(atPath: outURL.path))?[.modificationDate] as? Date
        )
    }
}

/// Whether a child has ended, so that its timeout's kill never reaches another process that
/// is later given the same pid: the waiter marks the end before it reaps the child.
/// `@unchecked Sendable`: its one mutable field is read and written only while `lock` is held.
private final class ExitWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false

    func markEnded() { lock.withLock { ended = true } }

    func killUnlessEnded(_ pid: pid_t) {
        lock.withLock {
            if !ended { kill(pid, SIGKILL) }
        }
    }
}

/// The exit codes the programs document (CLISupport's ExitStatus), repeated here on purpose:
/// the tests check the documented numbers, not whatever the code says.
enum Exit {
    static let ok: Int32 = 0
    static let usage: Int32 = 64
    static let notSignedIn: Int32 = 65
    static let store: Int32 = 66
    static let server: Int32 = 67
    static let forbidden: Int32 = 68
    static let rejected: Int32 = 69
}
