import ArgumentParser
import AsyncHTTPClientTransport
import Dispatch
import Foundation
import NetworkService

/// Per call: `GET /v1/members/me` through each way of calling it, one at a time and from 8
/// and 64 concurrent tasks. The figure to read is the client's CPU per call (the whole
/// process's: the caller's threads, URLSession's and SwiftNIO's) as a ratio of raw
/// URLSession's in the same round: many short rounds, each measuring every variant in turn
/// (order rotated), so what the shared machine does to one variant it does to its baseline
/// a moment apart; the median of the rounds' ratios and its 95 % interval are printed, and a
/// goal is judged from the interval.
struct PerCallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "per-call", abstract: "Client CPU and wall time per call, for each way of calling the API.")

    /// The SDK's rows over URLSession, each ÷ raw URLSession, at every concurrency.
    static let sdkGoal = 1.03
    /// The AsyncHTTPClient transport ÷ the URLSession transport (the static API over each).
    static let ahcGoal = 0.33
    /// A service with an observer installed ÷ one without.
    static let observerGoal = 1.02

    @OptionGroup var server: ServerOption
    // Many short rounds rather than a few long ones: the shorter a round, the closer in time a
    // variant and its baseline run, and the more of what the machine does cancels in their ratio.
    @Option(help: "Rounds; each measures every variant in turn, order rotated (at least 1).") var rounds = 60
    @Option(help: "Calls per variant in a round (at least 2 per task: 128 at 64 tasks by default).") var calls = 64
    @Option(help: "Measure only the variants whose name contains this (repeatable; raw URLSession is always measured).")
    var only: [String] = []

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
                ahcServer: try server.makeServer(transport: ahc), folder: folder
            ).filter { variant in
                variant.name == PerCallVariant.rawURLSession || only.isEmpty || only.contains { variant.name.contains($0) }
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

    /// Measures every variant at every level, `rounds` times, interleaved.
    static func measure(_ variants: [PerCallVariant], rounds: Int, calls: Int) async throws -> PerCallSamples {
        // Never from the main actor: a loop there pays a hop to it and back on every call.
        dispatchPrecondition(condition: .notOnQueue(.main))
        // Warm up every variant (connections, caches) before measuring.
        for tasks in PerCallSamples.levels {
            for variant in variants { _ = try await time(variant, tasks: tasks, calls: callCount(calls, tasks: tasks)) }
        }
        var samples = PerCallSamples()
        for round in 0..<rounds {
            for tasks in PerCallSamples.levels {
                for offset in variants.indices {
                    let variant = variants[(round + offset) % variants.count]
                    let (wall, cpu) = try await time(variant, tasks: tasks, calls: callCount(calls, tasks: tasks))
                    samples.record(variant.name, tasks: tasks, wall: wall, cpu: cpu)
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
