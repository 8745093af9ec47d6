import AppRepository
import ArgumentParser
import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// One process of a multi-process run: calls `GET /v1/members/me` through a
/// `RepositoryService` on the shared store, then prints a ``WorkerReport`` as JSON.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "One process of a multi-process run (started by processes and fleet).")

    @OptionGroup var server: ServerOption
    @OptionGroup var dpop: DPoPOption
    @Option var store: StoreChoice
    @Option var path = ""
    @Option var keyFile = ""
    @Option var account = "bench"
    @Option(help: "Stop after this many calls.") var calls: Int?
    @Option(help: "Stop after this many seconds.") var seconds: Double?
    @Option(help: "Seconds between calls.") var interval = 0.0
    @Flag(help: "Say on standard output when entering the store's exclusive section.") var announceSections = false
    @Option(help: "Measure waits instead (app-bench waits): rounds in all, the first not counted.") var waitRounds = 0
    @Option(help: "The first round's moment, in seconds since 1970.") var waitStart = 0.0
    @Option(help: "Seconds between rounds.") var waitPeriod = 4.0
    @Option(help: "Concurrent calls per round.") var waitTasks = 4
    @Option(help: "Seconds the server delays the next-to-last round's refresh, the last's three times as long (0: no such rounds).") var slowRefresh = 0.0
    @Flag(help: "Ask the server to delay the last two rounds' refreshes.") var setsFault = false

    func run() async throws {
        let location = WorkerStore(choice: store, path: path, keyFile: keyFile, account: account)
        var tokenStore = try await location.open()
        if announceSections { tokenStore = AnnouncingTokenStore(wrapped: tokenStore) }
        var configuration = RepositoryService.Configuration.appAPI
        // The stored key is the one signed with; the configuration says which kinds this worker reads.
        configuration.dpop = try dpop.configuration()
        if waitRounds > 0 { configuration.observer = WaitProbe.observer }
        let service = RepositoryService(server: try server.makeServer(transport: URLSessionTransport(timeout: 30)), tokenStore: tokenStore,
                                        configuration: configuration)
        if waitRounds > 0 {
            let probe = WaitProbe(tasks: waitTasks, start: waitStart, period: waitPeriod, rounds: waitRounds,
                                  slowRefresh: slowRefresh, setsFault: setsFault)
            var report = WorkerReport(startedAt: WallTime.epoch(), place: .current())
            report.waits = try await probe.run(service: service, testMode: try self.server.testMode())
            report.endedAt = WallTime.epoch()
            FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
            return
        }
        let events = service.events()
        let counted = Task {
            var (signedOut, refreshes) = (0, 0)
            for await event in events {
                switch event {
                case .signedOut: signedOut += 1
                case .refreshed: refreshes += 1
                default: break
                }
            }
            return (signedOut, refreshes)
        }
        var report = WorkerReport(startedAt: WallTime.epoch(), place: .current())
        let deadline = seconds.map { WallTime.now() + $0 }
        while calls.map({ report.calls < $0 }) ?? true, deadline.map({ WallTime.now() < $0 }) ?? true {
            report.calls += 1
            do {
                _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
            } catch {
                report.failed += 1
                if Self.isTransient(error) { report.transientFailures += 1 }
                if report.failureSamples.count < 5 { report.failureSamples.append(String(describing: error)) }
            }
            if interval > 0 { try await Task.sleep(for: .seconds(interval)) }
        }
        report.endedAt = WallTime.epoch()
        // Let the last events arrive, then stop listening.
        try await Task.sleep(for: .milliseconds(50))
        counted.cancel()
        let (signedOut, refreshes) = await counted.value
        report.signedOut = signedOut
        report.refreshes = refreshes
        let json = try JSONEncoder().encode(report)
        FileHandle.standardOutput.write(json + Data("\n".utf8))
    }

    /// Whether a failed call's error may pass: the store or the server was unreachable or
    /// failing for a moment, and the session was kept.
    static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let error as SessionError: return error.kind == .refreshFailed
        case let error as TokenStoreError:
            let aboutTheData: Set<TokenStoreError.Kind> = [.decryptionFailed, .unreadable, .unsupportedFormatVersion,
                                                            .insecurePermissions, .invalidKey, .invalidCredentials]
            return !aboutTheData.contains(error.kind)
        case let error as NetworkError: return error.statusCode == nil || (error.statusCode ?? 0) >= 500
        default: return false
        }
    }
}
