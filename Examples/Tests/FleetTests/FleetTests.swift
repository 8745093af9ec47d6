@testable import app_bench
import AppSDKHarness
import Foundation
import Testing

/// Many machines, one session: 3 simulated hosts × 4 processes share one account's session
/// through a `PostgresTokenStore` for 30 s against the reference server's 5-second tokens
/// (`app-bench fleet`), measured at the server; then for 20 s bound to one DPoP key, against a
/// server requiring DPoP.
///
/// Each host is a network namespace with an address of its own (`APP_FLEET_NAMESPACES`,
/// made by scripts/lib/netns.sh where the machine allows it), reaching the servers and
/// PostgreSQL on the namespaces' bridge; without namespaces, hosts are process groups with
/// folders of their own. Every test checks where the workers really ran.
@Suite("A fleet of processes shares one session through PostgreSQL", .serialized, .fleetServers)
struct FleetTests {
    @Test("12 processes on 3 hosts make at most 1.15× the minimum refreshes, with no reused refresh token, no sign-out and no failed call")
    func fleetSharesOneSession() async throws {
        let summary = try await FleetRun.run(fault: "none", server: .withoutReuseGrace)
        FleetRun.expectHostsApart(summary)
        #expect(summary.processes == 12)
        #expect(summary.calls > 12 * 30, "the workers made too few calls to mean anything")
        #expect(summary.ratio <= 1.15, "\(summary.refreshes) refreshes, minimum \(summary.minimum)")
        #expect(summary.refreshes >= Int(summary.minimum.rounded(.down)) - 1, "fewer refreshes than lifetimes: tokens used after expiry?")
        #expect(summary.reused == 0)
        #expect(summary.signOuts == 0)
        #expect(summary.failed == 0, "\(summary.samples)")
    }

    // DPoP (RFC 9449): the session is bound at sign-in to an ES256 key (swift-crypto on Linux),
    // kept in the PostgreSQL row with the tokens; every process signs every call and refresh
    // with that stored key against a server requiring DPoP with nonces (each process meets a
    // nonce challenge on its first call). 20 s, not 30: about 25 s in all.
    @Test("12 DPoP-bound processes on 3 hosts sign with the one stored key and make at most 1.15× the minimum refreshes, with no sign-out and no failed call")
    func dpopFleetSharesOneKey() async throws {
        let summary = try await FleetRun.run(fault: "none", server: .requiringDPoP, dpop: "es256", seconds: 20)
        FleetRun.expectHostsApart(summary)
        #expect(summary.processes == 12)
        #expect(summary.calls > 12 * 20, "the workers made too few calls to mean anything")
        #expect(summary.dpop == "es256")
        #expect(summary.keys == 1, "the server refreshed the families of \(summary.keys.map(String.init) ?? "no") keys")
        #expect(summary.storedKeySeen == true, "the key the server saw is not the one stored at sign-in")
        #expect(summary.ratio <= 1.15, "\(summary.refreshes) refreshes, minimum \(summary.minimum)")
        #expect(summary.refreshes >= Int(summary.minimum.rounded(.down)) - 1, "fewer refreshes than lifetimes: tokens used after expiry?")
        #expect(summary.reused == 0)
        #expect(summary.signOuts == 0)
        #expect(summary.failed == 0, "\(summary.samples)")
        #expect(summary.met == true)
    }

    // The faults can strike between the server's rotation and the save: the rotated refresh
    // token then dies with the process (or waits, unsaved, in its memory), and the next holder
    // refreshes with the stored one. The server's reuse grace period (30 s by default) takes
    // that as the retry of a lost response; without one, the session ends for everybody
    // (measured: 1 reuse, 11 sign-outs). So the fault runs use the server with the grace period.
    @Test("PostgreSQL restarted mid-run: calls fail transiently at most, and the session survives")
    func postgresRestart() async throws {
        let summary = try await FleetRun.run(fault: "restart-postgres", server: .withReuseGrace)
        FleetRun.expectHostsApart(summary)
        #expect(summary.failed == summary.transientFailures, "\(summary.samples)")
        #expect(summary.reused == 0)
        #expect(summary.signOuts == 0)
        #expect(summary.calls > summary.failed * 10, "most calls must work: \(summary.failed) of \(summary.calls) failed")
    }

    @Test("The process holding the lock killed with SIGKILL: the others go on, with no failed call")
    func lockHolderKilled() async throws {
        let summary = try await FleetRun.run(fault: "kill-lock-holder", server: .withReuseGrace)
        FleetRun.expectHostsApart(summary)
        #expect(summary.killed == 1)
        #expect(summary.reused == 0)
        #expect(summary.signOuts == 0)
        #expect(summary.failed == 0, "\(summary.samples)")
        // The killed process may have sent its refresh before it died (counted at the server,
        // never completed): one refresh more than a run without faults, and no more.
        #expect(Double(summary.refreshes) <= (summary.minimum * 1.15).rounded(.up) + 1,
                "\(summary.refreshes) refreshes, minimum \(summary.minimum)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with PostgreSQL and the fleet's three servers in test mode to use
    /// (scripts/test starts them).
    static var fleetServers: Self {
        let environment = ProcessInfo.processInfo.environment
        return .enabled(
            if: FleetRun.databaseURL != nil && FleetRun.restartCommand != nil && environment["APP_SERVER_TEST_MODE"] == "1"
                && environment["APP_FLEET_SERVER_URL"] != nil && environment["APP_FLEET_GRACE_SERVER_URL"] != nil
                && environment["APP_FLEET_DPOP_SERVER_URL"] != nil,
            "APP_POSTGRES_URL (APP_POSTGRES_FLEET_URL with APP_FLEET_NAMESPACES), APP_POSTGRES_DIR, APP_POSTGRES_SCRIPT, APP_FLEET_SERVER_URL, APP_FLEET_GRACE_SERVER_URL, APP_FLEET_DPOP_SERVER_URL or APP_SERVER_TEST_MODE=1 is not set: this test needs PostgreSQL and the fleet's three servers in test mode (scripts/test starts them)")
    }
}

/// One `app-bench fleet` run.
enum FleetRun {
    /// What `app-bench fleet --json` prints.
    typealias Summary = FleetCommand.Summary

    /// Which reference server the fleet talks to.
    enum ServerChoice {
        /// `APP_FLEET_SERVER_URL`: no reuse grace period, so any refresh token presented
        /// twice is reuse at once (scripts/test starts one).
        case withoutReuseGrace
        /// `APP_FLEET_GRACE_SERVER_URL`: the default 30-second reuse grace period.
        case withReuseGrace
        /// `APP_FLEET_DPOP_SERVER_URL`: DPoP required, with nonces, and no reuse grace period.
        case requiringDPoP

        var variable: String {
            switch self {
            case .withoutReuseGrace: "APP_FLEET_SERVER_URL"
            case .withReuseGrace: "APP_FLEET_GRACE_SERVER_URL"
            case .requiringDPoP: "APP_FLEET_DPOP_SERVER_URL"
            }
        }
    }

    /// The hosts' network namespaces (`APP_FLEET_NAMESPACES`), none when hosts are process groups.
    static var namespaces: [String] {
        (ProcessInfo.processInfo.environment["APP_FLEET_NAMESPACES"] ?? "").split(separator: ",").map(String.init)
    }

    /// Each namespace's address, in the order of ``namespaces``.
    static var addresses: [String] {
        (ProcessInfo.processInfo.environment["APP_FLEET_ADDRESSES"] ?? "").split(separator: ",").map(String.init)
    }

    /// PostgreSQL as the hosts reach it: on the namespaces' bridge, or on loopback.
    static var databaseURL: String? {
        let environment = ProcessInfo.processInfo.environment
        return namespaces.isEmpty ? environment["APP_POSTGRES_URL"] : environment["APP_POSTGRES_FLEET_URL"]
    }

    /// The hosts were apart: a folder each, a process group per worker and, with namespaces,
    /// a network of its own per host with its own address.
    static func expectHostsApart(_ summary: Summary, sourceLocation: SourceLocation = #_sourceLocation) {
        // Every worker that was not killed reported where it ran: 4 per host.
        #expect(summary.hosts.map(\.count).reduce(0, +) == summary.processes - summary.killed,
                "\(summary.hosts.map(\.count)) reports for \(summary.processes) processes, \(summary.killed) killed", sourceLocation: sourceLocation)
        #expect(summary.hosts.count == 3 && summary.hosts.allSatisfy { $0.count >= 4 - summary.killed },
                "reports per host: \(summary.hosts.map(\.count))", sourceLocation: sourceLocation)
        let workers = summary.hosts.flatMap { $0 }
        #expect(Set(workers.map(\.processGroup)).count == workers.count, "workers shared a process group", sourceLocation: sourceLocation)
        let folders = summary.hosts.map { Set($0.map(\.folder)) }
        #expect(folders.allSatisfy { $0.count == 1 }, "a host's workers ran in different folders: \(folders)", sourceLocation: sourceLocation)
        #expect(Set(folders.flatMap { $0 }).count == summary.hosts.count, "hosts shared a folder: \(folders)", sourceLocation: sourceLocation)
        guard !namespaces.isEmpty else {
            #expect(summary.isolation == "process groups", sourceLocation: sourceLocation)
            return
        }
        #expect(summary.isolation == "network namespaces", sourceLocation: sourceLocation)
        let networks = summary.hosts.map { Set($0.map(\.network)) }
        #expect(networks.allSatisfy { $0.count == 1 }, "a host's workers ran in different networks: \(networks)", sourceLocation: sourceLocation)
        #expect(Set(networks.flatMap { $0 }).count == summary.hosts.count, "hosts shared a network: \(networks)", sourceLocation: sourceLocation)
        #expect(!networks.contains { $0.contains(summary.ownNetwork) }, "a host ran in the test's own network", sourceLocation: sourceLocation)
        #expect(addresses.count == namespaces.count, "APP_FLEET_ADDRESSES must name one address per namespace", sourceLocation: sourceLocation)
        for (host, places) in summary.hosts.enumerated() where host < addresses.count {
            #expect(places.allSatisfy { $0.addresses == [addresses[host]] },
                    "host \(host + 1) should have exactly the address \(addresses[host]): \(places.map(\.addresses))", sourceLocation: sourceLocation)
        }
    }

    static var restartCommand: String? {
        let environment = ProcessInfo.processInfo.environment
        guard let script = environment["APP_POSTGRES_SCRIPT"], let folder = environment["APP_POSTGRES_DIR"] else { return nil }
        return "bash '\(script)' restart '\(folder)' >/dev/null"
    }

    /// Runs the fleet for `seconds`, its session bound to a DPoP key of kind `dpop` when given.
    static func run(fault: String, server choice: ServerChoice, dpop: String? = nil, seconds: Int = 30) async throws -> Summary {
        let executable = try ChildProcess.locate(
            "app-bench", folderVariable: "APP_CLI_BIN_DIR", hint: "run `swift build` in Examples first, or set APP_CLI_BIN_DIR")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("fleet.key")
        var key = [UInt8](repeating: 0, count: 32)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        try Data(key).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let server = try #require(ProcessInfo.processInfo.environment[choice.variable], "\(choice.variable) is not set")
        let lifetime = ProcessInfo.processInfo.environment["APP_ACCESS_TOKEN_LIFETIME"] ?? "5"
        // posix_spawn and waitpid, output to a file: the run restarts PostgreSQL, a daemon that
        // Foundation's Process could keep waiting for (ChildProcess.runToCompletion).
        let log = folder.appendingPathComponent("fleet.log")
        let arguments = [
            executable.path, "fleet", "--server", server, "--lifetime", lifetime, "--seconds", "\(seconds)", "--hosts", "3",
            "--per-host", "4", "--fault", fault, "--restart-command", restartCommand ?? "", "--key-file", keyFile.path, "--json",
        ] + (namespaces.isEmpty ? [] : ["--namespaces", namespaces.joined(separator: ",")]) + (dpop.map { ["--dpop", $0] } ?? [])
        setenv("APP_BENCH_DATABASE_URL", databaseURL ?? "", 1)
        // Waited for on a thread of its own, not one of the few cooperative ones.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try ChildProcess.runToCompletion(arguments, outputPath: log.path) }) }.start()
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        print(output.split(separator: "\n").filter { !$0.hasPrefix("{") }.joined(separator: "\n"))
        #expect(status == 0, "app-bench fleet exited \(status): \(output.suffix(2000))")
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "no summary: \(output.suffix(2000))")
        return try JSONDecoder().decode(Summary.self, from: Data(line.utf8))
    }
}
