import ArgumentParser
import Foundation

/// Several processes on one machine sharing a file store (then an encrypted one), against a
/// server with short-lived access tokens: refreshes against the minimum, sign-outs, failures.
struct ProcessesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "processes", abstract: "Processes sharing a file store: refreshes against the minimum.")

    @OptionGroup var server: ServerOption
    @OptionGroup var dpop: DPoPOption
    @Option(help: "The server's access-token lifetime in seconds.") var lifetime = 3.0
    @Option var processes = 8
    @Option var calls = 100
    @Option(help: "Seconds between a worker's calls.") var interval = 0.1
    @Option(parsing: .upToNextOption) var stores: [StoreChoice] = [.file, .encrypted]

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        print("\(processes) processes × \(calls) calls (one every \(format(interval, 2)) s) sharing one \(dpop.dpop.map { "DPoP-bound (\($0.rawValue)) session" } ?? "bearer session") in one store, \(format(lifetime, 0))-second access tokens; counted at the server")
        print(MultiProcessRun.header)
        var met = true
        for store in stores {
            let location = WorkerStore(choice: store, path: folder.appendingPathComponent("\(store.rawValue)/tokens").path,
                                         keyFile: folder.appendingPathComponent("\(store.rawValue)/key").path, account: "bench")
            let run = MultiProcessRun(server: server, location: location, lifetime: lifetime, hosts: 1, perHost: processes,
                                      workerArguments: ["--calls", "\(calls)", "--interval", "\(interval)"],
                                      folder: folder.appendingPathComponent("\(store.rawValue)-workers"), dpop: dpop)
            let result = try await run.run()
            print(MultiProcessRun.row("\(store.rawValue) store", result))
            for sample in Set(result.samples) { print("    failure: \(sample)") }
            if result.nonceChallenges > 0 { print("    DPoP nonce challenges: \(result.nonceChallenges)") }
            met = met && MultiProcessRun.metGoal(result)
        }
        let keyGoal = dpop.dpop == nil ? "" : ", 1 key seen by the server (the stored one)"
        print("Goal: refreshes ÷ minimum ≤ 1.15, 0 sign-outs, 0 failed calls\(keyGoal): \(met ? "met" : "missed")")
        if !met { throw ExitCode(1) }
    }
}
