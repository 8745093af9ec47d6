import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts `app-bench worker` processes, reads what they print, and collects their reports.
///
/// Workers of one simulated host share a working folder (also their `HOME` and `TMPDIR`)
/// and, when given one, a network namespace (`ip netns exec`: the host's own interfaces and
/// address, made by scripts/lib/netns.sh); each worker runs in a process group of its own
/// (`setsid`), so no two hosts share a folder, a file lock, a group or a network.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: `lock` guards `workers`, `lines` and `onSection`; the processes and pipes
    // are only started here and read by Foundation's handlers, which touch them through it.
    private let lock = NSLock()
    private var workers: [(process: Process, host: Int, output: Data)] = []
    private var onSection: (@Sendable (Int32) -> Void)?

    /// The executable of this program, to start workers of.
    static var executable: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
    }

    /// A network namespace was asked for, and this machine has no `ip` to enter it with.
    struct NoIPCommand: Error, CustomStringConvertible {
        var namespace: String
        var description: String {
            "cannot start workers in the network namespace \(namespace): no ip command in /usr/sbin, /sbin, /usr/bin or /bin (Debian: apt-get install iproute2)"
        }
    }

    /// Starts `count` workers for `host`, in `folder` and, when given, the network namespace
    /// `namespace`, with `arguments` after `worker`.
    func start(host: Int, count: Int, folder: URL, namespace: String? = nil, arguments: [String],
               environment: [String: String] = [:]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var command = [Self.executable.path, "worker"] + arguments
        let setsid = "/usr/bin/setsid"
        if FileManager.default.isExecutableFile(atPath: setsid) { command = [setsid, "--wait"] + command }
        if let namespace {
            guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
                .first(where: FileManager.default.isExecutableFile(atPath:)) else { throw NoIPCommand(namespace: namespace) }
            command = [ip, "netns", "exec", namespace] + command
        }
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            process.currentDirectoryURL = folder
            var env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            env["HOME"] = folder.path
            env["TMPDIR"] = folder.path
            process.environment = env
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            process.standardInput = FileHandle.nullDevice
            let index: Int = lock.withLock {
                workers.append((process, host, Data()))
                return workers.count - 1
            }
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { handle.readabilityHandler = nil; return }
                self.received(data, from: index)
            }
            try process.run()
        }
    }

    /// Calls `handler` with the pid of the next worker that enters the exclusive section.
    func onNextSection(_ handler: @escaping @Sendable (Int32) -> Void) {
        lock.withLock { onSection = handler }
    }

    private func received(_ data: Data, from index: Int) {
        let handler: (@Sendable (Int32) -> Void)? = lock.withLock {
            workers[index].output.append(data)
            guard onSection != nil, String(decoding: data, as: UTF8.self).contains("section-entered ") else { return nil }
            defer { onSection = nil }
            return onSection
        }
        if let handler {
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("section-entered ") }
            if let pid = line.flatMap({ Int32($0.dropFirst("section-entered ".count)) }) { handler(pid) }
        }
    }

    /// Waits for every worker; returns each one's report (`nil` for one that was killed or
    /// printed none), with its host.
    func finish() async -> [(host: Int, pid: Int32, report: WorkerReport?, status: Int32)] {
        let processes = lock.withLock { workers.map(\.process) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                for process in processes { process.waitUntilExit() }
                continuation.resume()
            }.start()
        }
        try? await Task.sleep(for: .milliseconds(100))  // the last output
        return lock.withLock {
            workers.map { worker in
                let line = String(decoding: worker.output, as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("{") }
                let report = line.flatMap { try? JSONDecoder().decode(WorkerReport.self, from: Data($0.utf8)) }
                return (worker.host, worker.process.processIdentifier, report, worker.process.terminationStatus)
            }
        }
    }
}
