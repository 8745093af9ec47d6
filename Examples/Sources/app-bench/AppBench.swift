import ArgumentParser

/// `app-bench`: the SDK measured from outside, against a running reference server in test
/// mode. `scripts/bench` runs it and prints what it prints; every figure is a ratio of
/// variants measured side by side in one run (interleaved, order rotated), because the
/// machine is shared and noisy.
@main
struct AppBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-bench",
        abstract: "Benchmarks of the SDK against a reference server in test mode.",
        subcommands: [PerCallCommand.self, StormCommand.self, ProcessesCommand.self, FleetCommand.self, WaitsCommand.self, WorkerCommand.self]
    )
}
