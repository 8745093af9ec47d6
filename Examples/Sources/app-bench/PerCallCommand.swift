import ArgumentParser
import AsyncHTTPClientTransport
import Dispatch
import Foundation
import NetworkService

/// Per call: `GET /v1/members/me` through each way of calling it, one at a time and from 8
/// and 64 concurrent tasks. The figure to read is the client's CPU per call (the whole
/// process's: the caller's threads, URLSession's and SwiftNIO's) as a ratio of raw
/// URLSession's measured just before and just after it, the two alternating in blocks (see
/// ``measure(_:rounds:calls:)``), so what the shared machine does to one variant it does to
/// its baseline a moment apart; the median of the ratios and its 95 % interval are printed,
/// and a goal is judged from the interval.
struct PerCallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "per-call", abstract: "Client CPU and wall time per call, for each way of calling the API.")

    /// The SDK's rows over URLSession, each ÷ the guarded minimal exchange, at every concurrency
    /// (issue 39; it replaces issue #24's 1.03× raw URLSession, which the guards alone nearly take).
    static let guardedGoal = 1.03
    /// The SDK's rows over URLSession, each ÷ raw URLSession, at every concurrency.
    static let sdkGoal = 1.06
    /// The AsyncHTTPClient transport ÷ AsyncHTTPClient used directly the same way (a delegate
    /// answered on one event loop), the static API over it (issue 39; it replaces issue #24's
    /// 0.33× the URLSession transport, below what AsyncHTTPClient itself costs).
    static let ahcGoal = 1.03
    /// A service with an observer installed ÷ one without.
    static let observerGoal = 1.02
    /// A DPoP-bound service's call (a proof signed per call) ÷ a bearer service's, both with
    /// the memory store (issue 36).
    static let dpopGoal = 1.10

    @OptionGroup var server: ServerOption
    // Many short measurements rather than a few long ones: the shorter they are, the closer in
    // time a variant and its baseline run, and the more of what the machine does cancels in
    // their ratio.
    @Option(help: "Ratios per variant and level, each against raw URLSession just before and after (at least 1).") var rounds = 60
    @Option(help: "Calls per measurement (at least 2 per task: 128 at 64 tasks by default).") var calls = 64
    @Option(help: "Measure only the variants whose name contains this (repeatable; raw URLSession is always measured, and with --dpop-server the bearer row the DPoP rows are compared with).")
    var only: [String] = []
    @Option(help: "A reference server in test mode requiring DPoP (--dpop required): adds the DPoP rows, EdDSA and ES256.")
    var dpopServer: String?

    func validate() throws {
        guard (1...10_000).contains(rounds) else { throw ValidationError("--rounds must be within 1...10000") }
        guard (1...100_000).contains(calls) else { throw ValidationError("--calls must be within 1...100000") }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ahc = AsyncHTTPClientTransport.owningClient(timeout: 60)
        do {
            let variants = try await PerCallVariant.all(
                baseURL: server.server, server: try server.makeServer(), ahc: ahc,
                ahcServer: try server.makeServer(transport: ahc),
                dpopServer: try dpopServer.map { try ServerOption.makeServer($0) }, folder: folder
            ).filter { variant in
                variant.name == PerCallVariant.rawURLSession || (variant.name == PerCallVariant.memory && dpopServer != nil)
                    || only.isEmpty || only.contains { variant.name.contains($0) }
            }
            let samples = try await Self.measure(variants, rounds: rounds, calls: calls)
            Self.report(samples, variants: variants.map(\.name), rounds: rounds, calls: calls)
        } catch {
            try? await ahc.shutdown()
            throw error
        }
        try await ahc.shutdown()
    }

    /// Calls per variant in a round at `tasks` tasks: `calls`, at least 2 per task, a multiple of `tasks`.
    static func callCount(_ calls: Int, tasks: Int) -> Int {
        max(calls, 2 * tasks) / tasks * tasks
    }

    /// Ratios per block of one variant against raw URLSession (see ``measure(_:rounds:calls:)``).
    static let pairsPerBlock = 6

    /// Measures every variant at every level `rounds` times, each against raw URLSession
    /// measured just before and just after it.
    ///
    /// The measurements come in blocks: raw URLSession and one variant alternate
    /// (`B V B V … V B`, ``pairsPerBlock`` variant measurements), after one pair that warms
    /// both up and is not kept. Within a block both run equally often, a moment apart, so
    /// neither has its caches, connections or threads warmer than the other. (Measuring raw
    /// URLSession between every two variants of a round instead made it 2–4 % cheaper than
    /// its neighbours: it ran ten times as often as each of them.) Blocks of every variant
    /// and level follow each other, the variants' order rotated from one pass to the next.
    static func measure(_ variants: [PerCallVariant], rounds: Int, calls: Int) async throws -> PerCallSamples {
        // Never from the main actor: a loop there pays a hop to it and back on every call.
        dispatchPrecondition(condition: .notOnQueue(.main))
        var samples = PerCallSamples()
        guard let baseline = variants.first(where: { $0.name == PerCallVariant.rawURLSession }) else { return samples }
        let others = variants.filter { $0.name != baseline.name }
        let passes = (rounds + pairsPerBlock - 1) / pairsPerBlock
        for pass in 0..<passes {
            let pairs = min(pairsPerBlock, rounds - pass * pairsPerBlock)
            for tasks in PerCallSamples.levels {
                let count = callCount(calls, tasks: tasks)
                for offset in others.indices {
                    let variant = others[(pass + offset) % others.count]
                    _ = try await time(baseline, tasks: tasks, calls: count)
                    _ = try await time(variant, tasks: tasks, calls: count)
                    var before = try await time(baseline, tasks: tasks, calls: count)
                    for _ in 0..<pairs {
                        let (wall, cpu) = try await time(variant, tasks: tasks, calls: count)
                        let after = try await time(baseline, tasks: tasks, calls: count)
                        samples.record(variant.name, tasks: tasks, wall: wall, cpu: cpu, baselineCPU: (before.cpu + after.cpu) / 2)
                        samples.record(baseline.name, tasks: tasks, wall: before.wall, cpu: before.cpu, baselineCPU: before.cpu)
                        before = after
                    }
                }
            }
        }
        return samples
    }

    /// Runs `calls` calls of `variant` from `tasks` tasks; returns wall and CPU seconds per call.
    static func time(_ variant: PerCallVariant, tasks: Int, calls: Int) async throws -> (wall: Double, cpu: Double) {
        let perTask = calls / tasks
        let (wall0, cpu0) = (WallTime.now(), CPUTime.now())
        if tasks == 1 {
            for _ in 0..<calls { try await variant.call() }
        } else {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask { for _ in 0..<perTask { try await variant.call() } }
                }
                try await group.waitForAll()
            }
        }
        let count = Double(perTask * tasks)
        return ((WallTime.now() - wall0) / count, (CPUTime.now() - cpu0) / count)
    }
}
