import AppSDKHarness
import Foundation

/// A reference server of a test's own (`app-server` in test mode, 5-second access tokens, its
/// own database), which the test may stop and start again on the same port with the same data.
/// The binary is `APP_SERVER_BINARY`, else `Server/.build/debug/app-server` (where
/// scripts/test builds it); a missing binary fails the test.
final class OwnServer {
    let folder: URL
    private(set) var url: URL
    private var process: Process

    /// Starts a server on a free loopback port.
    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-server-\(UUID().uuidString)")
        // The server refuses a data folder that others can read (its signing secret lives there).
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        (process, url) = try await Self.start(in: folder, port: 0)
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops it (SIGTERM) and waits until it has exited: its port refuses connections.
    func stop() async throws {
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw TestSetupError("app-server did not stop within 10 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Starts it again on the same port, with the same database and signing secret.
    func restart() async throws {
        guard let port = url.port else { throw TestSetupError("no port in \(url)") }
        (process, url) = try await Self.start(in: folder, port: port)
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["APP_SERVER_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // the package
            .deletingLastPathComponent().deletingLastPathComponent()                              // the repository
            .appendingPathComponent("Server/.build/debug/app-server")
    }

    private static func start(in folder: URL, port: Int) async throws -> (Process, URL) {
        let binary = binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TestSetupError("\(binary.path) is missing: build the server (cd Server && swift build) or set APP_SERVER_BINARY")
        }
        let output = folder.appendingPathComponent("server-\(UUID().uuidString).out")
        let log = folder.appendingPathComponent("server-\(UUID().uuidString).log")
        for file in [output, log] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw TestSetupError("cannot create \(file.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--data-dir", folder.path,
                             "--database", folder.appendingPathComponent("app.sqlite").path, "--test-mode",
                             "--bcrypt-cost", "4", "--access-token-lifetime", "5", "--log-level", "warning"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "),
               let url = URL(string: String(text[range.upperBound...].prefix { !$0.isWhitespace })) {
                return (process, url)
            }
            guard process.isRunning else {
                let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5)
                throw TestSetupError("app-server exited while starting (status \(process.terminationStatus)): \(lines.joined(separator: " | "))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw TestSetupError("app-server did not say where it listens within 30 s")
    }
}
