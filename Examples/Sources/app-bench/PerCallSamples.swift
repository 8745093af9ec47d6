import Foundation

/// What `app-bench per-call` measured: for each variant, concurrency and round, the wall
/// time and the client's CPU time per call, in seconds.
struct PerCallSamples {
    /// The concurrency levels measured: one task (sequential), 8 and 64 tasks.
    static let levels = [1, 8, 64]

    private(set) var wall: [Key: [Double]] = [:]
    private(set) var cpu: [Key: [Double]] = [:]

    struct Key: Hashable {
        let variant: String
        let tasks: Int
    }

    mutating func record(_ variant: String, tasks: Int, wall: Double, cpu: Double) {
        self.wall[Key(variant: variant, tasks: tasks), default: []].append(wall)
        self.cpu[Key(variant: variant, tasks: tasks), default: []].append(cpu)
    }

    /// Whether `variant` was measured at all.
    func measured(_ variant: String) -> Bool { cpu[Key(variant: variant, tasks: Self.levels[0])] != nil }

    /// `variant`'s CPU per call ÷ `baseline`'s, round by round, at `tasks` tasks.
    func ratios(_ variant: String, to baseline: String, tasks: Int) -> [Double] {
        let numerators = cpu[Key(variant: variant, tasks: tasks)] ?? []
        let denominators = cpu[Key(variant: baseline, tasks: tasks)] ?? []
        return zip(numerators, denominators).map { $0 / $1 }
    }

    /// The estimate of `variant`'s CPU per call ÷ `baseline`'s at `tasks` tasks.
    func estimate(_ variant: String, to baseline: String, tasks: Int) -> RatioEstimate {
        RatioEstimate(ratios(variant, to: baseline, tasks: tasks))
    }

    /// The median over the rounds of `variant`'s wall and CPU time per call, in µs.
    func microseconds(_ variant: String, tasks: Int) -> (wall: Double, cpu: Double) {
        let key = Key(variant: variant, tasks: tasks)
        return (RatioEstimate(wall[key] ?? []).median * 1e6, RatioEstimate(cpu[key] ?? []).median * 1e6)
    }
}
