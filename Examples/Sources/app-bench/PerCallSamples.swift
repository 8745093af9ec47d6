import Foundation

/// What `app-bench per-call` measured: for each variant, concurrency and round, the wall
/// time and the client's CPU time per call, in seconds, and the CPU time per call of raw
/// URLSession measured around it (the mean of the measurements just before and just after).
struct PerCallSamples {
    /// The concurrency levels measured: one task (sequential), 8 and 64 tasks.
    static let levels = [1, 8, 64]

    private(set) var wall: [Key: [Double]] = [:]
    private(set) var cpu: [Key: [Double]] = [:]
    private(set) var baselineCPU: [Key: [Double]] = [:]

    struct Key: Hashable {
        let variant: String
        let tasks: Int
    }

    mutating func record(_ variant: String, tasks: Int, wall: Double, cpu: Double, baselineCPU: Double) {
        let key = Key(variant: variant, tasks: tasks)
        self.wall[key, default: []].append(wall)
        self.cpu[key, default: []].append(cpu)
        self.baselineCPU[key, default: []].append(baselineCPU)
    }

    /// Whether `variant` was measured at all.
    func measured(_ variant: String) -> Bool { cpu[Key(variant: variant, tasks: Self.levels[0])] != nil }

    /// `variant`'s CPU per call ÷ `baseline`'s, round by round, at `tasks` tasks: each over
    /// raw URLSession's around it, so that a change of the machine's pace between the two
    /// measurements cancels.
    func ratios(_ variant: String, to baseline: String, tasks: Int) -> [Double] {
        zip(relative(variant, tasks: tasks), relative(baseline, tasks: tasks)).map { $0 / $1 }
    }

    /// `variant`'s CPU per call ÷ raw URLSession's around it, round by round.
    private func relative(_ variant: String, tasks: Int) -> [Double] {
        let key = Key(variant: variant, tasks: tasks)
        return zip(cpu[key] ?? [], baselineCPU[key] ?? []).map { $0 / $1 }
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
