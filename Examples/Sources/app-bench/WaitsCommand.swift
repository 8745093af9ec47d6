import AppRepository
import AppSDKHarness
import ArgumentParser
import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Waits for a refresh another caller started: in one process (tasks on one service, a memory
/// store) and across processes sharing a file, encrypted or PostgreSQL store, each process
/// firing `--tasks` concurrent calls at agreed moments when the shared token has expired
/// (``WaitProbe``). Prints p50 and p99 of the waits per store and process count, and whether
/// a waiter polls: the context switches of the waiting processes while a refresh the server
/// delays is in flight, against a second of sleep.
struct WaitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waits", abstract: "How long callers wait for a refresh another started, in and across processes.")

    enum Store: String, ExpressibleByArgument, CaseIterable, Sendable {
        case memory, file, encrypted, postgres
    }

    @OptionGroup var server: ServerOption
    @Option(help: "The server's access-token lifetime in seconds.") var lifetime = 3.0
    @Option(parsing: .upToNextOption, help: "Process counts (memory: one process with as many callers).") var processes = [1, 2, 8, 16, 64]
    @Option(parsing: .upToNextOption) var stores: [Store] = Store.allCases
    @Option(help: "Concurrent calls per process in each round.") var tasks = 4
    @Option(help: "Rounds counted (after one that warms up).") var rounds = 5
    @Option(help: "Seconds the server delays the next-to-last round's refresh (the last: three times as long), to see whether waiters poll (0: no such rounds).")
    var slowRefresh = 2.0

    /// Context switches a second that a longer wait may add above a sleeping process's: a
    /// waiter that polled every 10 ms would add about 100.
    static let pollingMargin = 10.0

    func validate() throws {
        guard processes.allSatisfy({ (1...256).contains($0) }) else { throw ValidationError("--processes must be within 1...256") }
        guard (1...1000).contains(tasks), (1...100).contains(rounds) else { throw ValidationError("--tasks 1...1000, --rounds 1...100") }
        guard lifetime > 0, slowRefresh >= 0 else { throw ValidationError("--lifetime must be more than 0, --slow-refresh at least 0") }
    }

    struct Cell {
        var inProcess: [Double] = [], acrossProcesses: [Double] = [], refreshes: [Double] = []
        var serverRefreshes = 0, lateRounds = 0, failed = 0
        /// Per slow round (short, long) over the processes that waited in both: switches and seconds.
        var waitingSwitches = [0, 0], waitingSeconds = [0.0, 0.0], idleSwitches = 0, idleSeconds = 0.0, waitingProcesses = 0
        var samples: [String] = []

        mutating func add(_ report: WaitReport) {
            inProcess += report.waitsInProcess
            acrossProcesses += report.waitsAcrossProcesses
            refreshes += report.refreshSeconds
            lateRounds += report.lateRounds
            failed += report.failedCalls
            samples += report.failures
            guard report.slowRounds.count == 2, report.slowRounds.allSatisfy({ !$0.refresher && $0.seconds > 0 }) else { return }
            waitingProcesses += 1
            for (index, round) in report.slowRounds.enumerated() {
                waitingSwitches[index] += round.switches
                waitingSeconds[index] += round.seconds
            }
            idleSwitches += report.idleSwitches
            idleSeconds += report.idleSeconds
        }

        /// Mean switches and seconds per waiting process in slow round `index`.
        func slow(_ index: Int) -> (switches: Double, seconds: Double)? {
            guard waitingProcesses > 0 else { return nil }
            return (Double(waitingSwitches[index]) / Double(waitingProcesses), waitingSeconds[index] / Double(waitingProcesses))
        }

        /// Switches a second that the long wait added over the short one, per waiting process.
        var addedRate: Double? {
            guard let short = slow(0), let long = slow(1), long.seconds > short.seconds + 0.5 else { return nil }
            return (long.switches - short.switches) / (long.seconds - short.seconds)
        }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-waits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let period = lifetime + 1
        print("Waits for a refresh another caller started: \(tasks) concurrent calls per process, fired together when the shared")
        print("\(format(lifetime, 0))-second token has expired, \(rounds) rounds (after one that warms up); a wait is from a caller's call until")
        print("its handler holds a token, for callers that joined a refresh in their process or found the token another process rotated")
        print("(memory: one process with as many callers as the row's processes have). The last two rounds: the server delays the")
        print("refresh \(format(slowRefresh, 1)) s, then \(format(3 * slowRefresh, 1)) s; context switches (every thread, getrusage) of each process that waits for")
        print("it, from the round's start until its first caller holds a token (mean per waiting process: csw short, csw long), the")
        print("switches a second the longer wait added, and those of a second of sleep just before")
        print("\(pad("store", 11))\(pad("processes", 10, right: true))\(pad("callers", 9, right: true))\(pad("waits", 8, right: true))\(pad("across", 8, right: true))\(pad("p50 ms", 9, right: true))\(pad("p99 ms", 9, right: true))\(pad("refresh ms", 12, right: true))\(pad("refreshes", 11, right: true))\(pad("late", 6, right: true))\(pad("failed", 8, right: true))\(pad("csw short", 16, right: true))\(pad("csw long", 16, right: true))\(pad("added/s", 9, right: true))\(pad("asleep/s", 10, right: true))")
        var polls = false, failed = false
        for store in stores {
            if store == .postgres, (ProcessInfo.processInfo.environment["APP_BENCH_DATABASE_URL"] ?? "").isEmpty {
                print("postgres: skipped, APP_BENCH_DATABASE_URL is not set")
                continue
            }
            for count in processes {
                let cell: Cell
                do {
                    cell = try await measure(store: store, processes: count, period: period, folder: folder.appendingPathComponent("\(store.rawValue)-\(count)"))
                } catch {
                    print("\(store.rawValue) × \(count): failed: \(error)")
                    failed = true
                    continue
                }
                let waits = cell.inProcess + cell.acrossProcesses
                let asleep = cell.idleSeconds > 0 ? Double(cell.idleSwitches) / cell.idleSeconds : .nan
                func slow(_ index: Int) -> String {
                    cell.slow(index).map { "\(format($0.switches, 1)) in \(format($0.seconds, 1)) s" } ?? "—"
                }
                let callers = count * tasks
                print("\(pad(store.rawValue, 11))\(pad(store == .memory ? "1" : "\(count)", 10, right: true))\(pad("\(callers)", 9, right: true))\(pad("\(waits.count)", 8, right: true))\(pad("\(cell.acrossProcesses.count)", 8, right: true))\(pad(Self.milliseconds(waits, 0.50), 9, right: true))\(pad(Self.milliseconds(waits, 0.99), 9, right: true))\(pad(Self.milliseconds(cell.refreshes, 0.50), 12, right: true))\(pad("\(cell.serverRefreshes)", 11, right: true))\(pad("\(cell.lateRounds)", 6, right: true))\(pad("\(cell.failed)", 8, right: true))\(pad(slow(0), 16, right: true))\(pad(slow(1), 16, right: true))\(pad(cell.addedRate.map { format($0, 1) } ?? "—", 9, right: true))\(pad(asleep.isNaN ? "—" : format(asleep, 1), 10, right: true))")
                for sample in Set(cell.samples) { print("    failure: \(sample)") }
                fflush(nil)   // each row as it is measured, also into a file
                failed = failed || cell.failed > 0
                if let added = cell.addedRate, !asleep.isNaN, added > asleep + Self.pollingMargin { polls = true }
            }
        }
        print("(waits: callers that waited, of them across: in another process than the refresher's; refresh ms: p50 of the refreshing caller's own")
        print(" time; refreshes: counted at the server, one per round and the warm-up's; late: rounds a process joined after their moment)")
        print("Goal: no waiter polls (a longer wait adds no more than \(format(Self.pollingMargin, 0)) switches a second above sleep), 0 failed: \(!polls && !failed ? "met" : "missed")")
        if polls || failed { throw ExitCode(1) }
    }

    /// Nearest-rank percentile of `values`, in milliseconds.
    static func milliseconds(_ values: [Double], _ quantile: Double) -> String {
        guard !values.isEmpty else { return "—" }
        let sorted = values.sorted()
        let rank = max(Int((quantile * Double(sorted.count)).rounded(.up)), 1)
        return format(sorted[rank - 1] * 1000, 1)
    }

    private func measure(store: Store, processes count: Int, period: Double, folder: URL) async throws -> Cell {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let api = try server.makeServer()
        let testMode = try server.testMode()
        let totalRounds = rounds + 1 + (slowRefresh > 0 ? 2 : 0)
        var cell = Cell()
        let before = try await testMode.counters()
        if store == .memory {
            var configuration = RepositoryService.Configuration.appAPI
            configuration.observer = WaitProbe.observer
            let service = RepositoryService(server: try server.makeServer(transport: URLSessionTransport(timeout: 30)),
                                            tokenStore: InMemoryTokenStore(), configuration: configuration)
            _ = try await service.signInAnonymously()
            let start = WallTime.epoch() + lifetime + 0.3
            let probe = WaitProbe(tasks: tasks * count, start: start, period: period, rounds: totalRounds,
                                  slowRefresh: slowRefresh, setsFault: true)
            cell.add(try await probe.run(service: service, testMode: testMode))
            _ = try? await service.signOut()
        } else {
            let choice: StoreChoice = switch store {
            case .file: .file
            case .encrypted: .encrypted
            default: .postgres
            }
            let keyFile = folder.appendingPathComponent("key")
            if choice == .postgres {
                try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: keyFile)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
            }
            let location = WorkerStore(choice: choice, path: folder.appendingPathComponent("tokens").path, keyFile: keyFile.path,
                                       account: "waits-\(UUID().uuidString.prefix(8).lowercased())")
            let service = RepositoryService(server: api, tokenStore: try await location.open())
            _ = try await service.signInAnonymously()
            let start = max(WallTime.epoch() + lifetime + 0.3, WallTime.epoch() + 2 + 0.1 * Double(count))
            let arguments = server.arguments + location.arguments
                + ["--wait-rounds", "\(totalRounds)", "--wait-start", "\(start)", "--wait-period", "\(period)",
                   "--wait-tasks", "\(tasks)", "--slow-refresh", "\(slowRefresh)"]
            let pool = WorkerPool()
            try pool.start(host: 0, count: 1, folder: folder.appendingPathComponent("workers"), arguments: arguments + ["--sets-fault"])
            if count > 1 { try pool.start(host: 0, count: count - 1, folder: folder.appendingPathComponent("workers"), arguments: arguments) }
            for outcome in await pool.finish() {
                if let waits = outcome.report?.waits { cell.add(waits) } else {
                    cell.failed += 1
                    cell.samples.append("a worker ended with status \(outcome.status) and no report")
                }
            }
            _ = try? await service.signOut()
        }
        cell.serverRefreshes = try await testMode.counters().refreshCalls - before.refreshCalls
        return cell
    }
}
