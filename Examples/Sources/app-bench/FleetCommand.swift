import AppSDKHarness
import ArgumentParser
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Simulated hosts × processes sharing one session through a `PostgresTokenStore`, against
/// a server with short-lived access tokens; optionally with a fault mid-run: PostgreSQL
/// restarted, or the process that holds the lock killed with SIGKILL.
///
/// The database URL comes from `APP_BENCH_DATABASE_URL` (never the command line).
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: "Hosts × processes sharing one session through PostgreSQL.")

    enum Fault: String, ExpressibleByArgument, Sendable {
        case none
        case restartPostgres = "restart-postgres"
        case killLockHolder = "kill-lock-holder"
    }

    @OptionGroup var server: ServerOption
    @OptionGroup var dpop: DPoPOption
    @Option(help: "The server's access-token lifetime in seconds.") var lifetime = 5.0
    @Option var hosts = 3
    @Option var perHost = 4
    @Option var seconds = 30.0
    @Option(help: "Seconds between a worker's calls.") var interval = 0.02
    @Option var fault: Fault = .none
    @Option(help: "Shell command that restarts PostgreSQL (for --fault restart-postgres).") var restartCommand = ""
    @Option(help: "Key file for the encrypted rows.") var keyFile: String
    @Option(help: "Account row the fleet shares.") var account = "fleet-\(UUID().uuidString.prefix(8).lowercased())"
    @Option(help: "Comma-separated network namespaces, one per host (scripts/lib/netns.sh makes them); without it hosts are process groups.")
    var namespaces = ""
    @Flag(help: "Print the result as one JSON line as well.") var json = false

    struct Summary: Codable {
        var fault: String
        var processes, calls, failed, transientFailures, signOuts, refreshes, unauthorized, reused, killed: Int
        var seconds, minimum, ratio: Double
        var samples: [String]
        /// "network namespaces" or "process groups".
        var isolation: String
        /// The network namespace of the process that ran the fleet.
        var ownNetwork: String
        /// Where each host's workers ran.
        var hosts: [[WorkerPlace]]
        /// The kind of DPoP key the session was bound to, `nil` for a bearer session.
        var dpop: String?
        /// For a DPoP-bound session: how many keys' families the server refreshed, and
        /// whether the one it saw was the key stored at sign-in.
        var keys: Int?
        var storedKeySeen: Bool?
        var nonceChallenges: Int?
        /// Whether the goal of a run without faults was met (`nil` with a fault).
        var met: Bool?
    }

    var namespaceList: [String] { namespaces.split(separator: ",").map(String.init) }

    func validate() throws {
        if !namespaceList.isEmpty, namespaceList.count != hosts {
            throw ValidationError("--namespaces names \(namespaceList.count) namespaces for \(hosts) hosts: give one per host")
        }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = WorkerStore(choice: .postgres, path: "", keyFile: keyFile, account: account)
        let fleet = MultiProcessRun(server: server, location: location, lifetime: lifetime, hosts: hosts, perHost: perHost,
                                    workerArguments: ["--seconds", "\(seconds)", "--interval", "\(interval)"]
                                        + (fault == .killLockHolder ? ["--announce-sections"] : []),
                                    folder: folder, namespaces: namespaceList, dpop: dpop)
        let (fault, seconds, restartCommand) = (self.fault, self.seconds, self.restartCommand)
        let result = try await fleet.run { pool in
            switch fault {
            case .none:
                return 0
            case .restartPostgres:
                try await Task.sleep(for: .seconds(seconds / 2))
                let status = try Self.shell(restartCommand)
                if status != 0 { FileHandle.standardError.write(Data("fleet: the restart command exited \(status)\n".utf8)) }
                return 0
            case .killLockHolder:
                try await Task.sleep(for: .seconds(seconds / 3))
                let killed = LockedCount()
                pool.onNextSection { pid in
                    kill(pid, SIGKILL)
                    killed.increment()
                }
                // The lock is taken at the next refresh (one per lifetime).
                let deadline = WallTime.now() + 2 * (Double(seconds) / 3)
                while killed.value == 0, WallTime.now() < deadline { try await Task.sleep(for: .milliseconds(20)) }
                return killed.value
            }
        }
        let isolation = namespaceList.isEmpty ? "process groups" : "network namespaces"
        print("\(hosts) hosts (\(isolation)) × \(perHost) processes for \(format(seconds, 0)) s sharing one \(dpop.dpop.map { "DPoP-bound (\($0.rawValue)) session" } ?? "bearer session") in PostgreSQL, \(format(lifetime, 0))-second access tokens, fault: \(fault.rawValue); counted at the server")
        for (host, places) in result.places.enumerated() {
            let addresses = Set(places.flatMap(\.addresses)).sorted().joined(separator: ", ")
            let network = namespaceList.isEmpty ? "" : "namespace \(namespaceList[host]), "
            print("  host \(host + 1): \(network)address \(addresses.isEmpty ? "none" : addresses), \(places.count) processes")
        }
        print(MultiProcessRun.header)
        print(MultiProcessRun.row("postgres", result) + (result.killed > 0 ? "  (\(result.killed) killed)" : ""))
        for sample in Set(result.samples) { print("    failure: \(sample)") }
        if result.nonceChallenges > 0 { print("    DPoP nonce challenges: \(result.nonceChallenges)") }
        // The goal is judged without a fault only: a fault has the fleet test's own criteria.
        let met: Bool? = fault == .none ? MultiProcessRun.metGoal(result) : nil
        if let met {
            let keyGoal = dpop.dpop == nil ? "" : ", 1 key seen by the server (the stored one)"
            print("Goal: refreshes ÷ minimum ≤ 1.15, 0 sign-outs, 0 failed calls\(keyGoal): \(met ? "met" : "missed")")
        }
        if json {
            let summary = Summary(fault: fault.rawValue, processes: result.processes, calls: result.calls, failed: result.failed,
                                  transientFailures: result.transientFailures, signOuts: result.signOuts, refreshes: result.refreshes,
                                  unauthorized: result.unauthorized, reused: result.reused, killed: result.killed,
                                  seconds: result.seconds, minimum: result.minimum, ratio: result.ratio, samples: Array(Set(result.samples)),
                                  isolation: isolation, ownNetwork: WorkerPlace.networkNamespace(), hosts: result.places,
                                  dpop: dpop.dpop?.rawValue, keys: result.keysSeen?.count,
                                  storedKeySeen: result.keysSeen == nil ? nil : result.storedKeySeen,
                                  nonceChallenges: result.keysSeen == nil ? nil : result.nonceChallenges, met: met)
            print(String(decoding: try JSONEncoder().encode(summary), as: UTF8.self))
        }
        if met == false { throw ExitCode(1) }
    }

    /// Runs `command` with /bin/sh and returns its exit status. It restarts a daemon, so it
    /// runs through `posix_spawn` and `waitpid` (Foundation's `Process` can keep waiting for
    /// the daemon the command leaves running), its output appended to a file that is then
    /// copied to standard error.
    static func shell(_ command: String) throws -> Int32 {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-shell-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let status = try ChildProcess.runToCompletion(["/bin/sh", "-c", command], outputPath: log.path)
        if let output = FileManager.default.contents(atPath: log.path), !output.isEmpty {
            FileHandle.standardError.write(output)
        }
        return status
    }
}

/// A counter shared with a Foundation handler.
final class LockedCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
