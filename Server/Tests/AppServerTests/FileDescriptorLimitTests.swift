import AppServerCore
import Foundation
import Testing

/// Issue 26 (11): `--max-connections 512` under `ulimit -n 256` started, then spun at 100 % CPU.
@Suite("The connection limit against the file descriptor limit")
struct FileDescriptorLimitTests {
    static let arguments = ["--port", "0", "--database", ":memory:", "--test-mode", "--bcrypt-cost", "4"]

    @Test("more connections than the hard file descriptor limit allows is refused at start with exit 64, naming both numbers")
    func refusedAboveHardLimit() async throws {
        let server = try ServerProcess(limit: "-n 256", arguments: Self.arguments + ["--max-connections", "512"])
        let status = try await server.exitStatus(within: 30)
        if status == nil { try await server.stop() }
        #expect(status == 64, "stdout: \(server.stdout) stderr: \(server.stderr.suffix(400))")
        #expect(server.stderr.contains("max connections 512 needs"), "\(server.stderr.suffix(400))")
        #expect(server.stderr.contains("at most 256"))
        #expect(server.stderr.contains("lower --max-connections to \(256 - FileDescriptorLimit.reserve()) or less"))
        #expect(!server.stdout.contains("listening"))
    }

    @Test("a connection limit that fits under the limit starts; above only the soft limit, the server raises its soft limit")
    func startsWhenItFits() async throws {
        let fitting = try ServerProcess(limit: "-n 256", arguments: Self.arguments + ["--max-connections", "100"])
        #expect(try await fitting.listening(within: 30), "\(fitting.stderr.suffix(400))")
        #expect(try await fitting.stop() == 0)

        let raised = try ServerProcess(limit: "-Sn 256", arguments: Self.arguments + ["--max-connections", "512"])
        #expect(try await raised.listening(within: 30), "\(raised.stderr.suffix(400))")
        #if os(Linux)
        let limits = try String(contentsOfFile: "/proc/\(raised.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let soft = try #require(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) })
        #expect(soft == 512 + FileDescriptorLimit.reserve(), "\(line)")
        #endif
        #expect(try await raised.stop() == 0)
    }

    @Test("the decision: enough, raise the soft limit up to the hard one, or refuse naming both numbers")
    func decision() {
        let limits = FileDescriptorLimit.Limits(soft: 256, hard: 10_240)
        #expect(FileDescriptorLimit.decide(maxConnections: 100, reserve: 38, limits: limits) == .enough)
        #expect(FileDescriptorLimit.decide(maxConnections: 512, reserve: 38, limits: limits) == .raise(to: 550))
        guard case .refuse(let error) = FileDescriptorLimit.decide(maxConnections: 512, reserve: 38, limits: .init(soft: 256, hard: 256)) else {
            Issue.record("not refused")
            return
        }
        #expect(error.description.contains("512") && error.description.contains("256") && error.description.contains("218"), "\(error)")
        guard case .refuse(let tiny) = FileDescriptorLimit.decide(maxConnections: 1, reserve: 38, limits: .init(soft: 20, hard: 20)) else {
            Issue.record("not refused")
            return
        }
        #expect(tiny.description.hasSuffix("raise the limit"), "\(tiny)")
    }
}
