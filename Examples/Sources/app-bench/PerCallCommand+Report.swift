import Foundation

extension PerCallCommand {
    /// Prints the ratios with their intervals and verdicts, the µs behind them, and the goals.
    static func report(_ samples: PerCallSamples, variants: [String], rounds: Int, calls: Int) {
        let levels = PerCallSamples.levels
        let baseline = PerCallVariant.rawURLSession
        let columns = levels.map { $0 == 1 ? "sequential" : "\($0) tasks" }
        print("Per call: GET /v1/members/me; \(rounds) measurements of each variant at each level, alternating with raw URLSession")
        print("in blocks of \(pairsPerBlock); \(callCount(calls, tasks: 1)) calls per measurement (\(callCount(calls, tasks: 64)) at 64 tasks)")
        print("client CPU per call ÷ raw URLSession's just before and after it: median of the ratios [95 % interval of the median];")
        print("the SDK's rows over URLSession: goal ≤ \(format(sdkGoal))× raw URLSession (marked) and ≤ \(format(guardedGoal))× the guarded minimal")
        print("exchange (goal lines below), met when the whole interval is within it")
        print(pad("", 44) + columns.map { pad($0, 32, right: true) }.joined())
        for variant in variants {
            var line = pad(variant, 44)
            for tasks in levels {
                let estimate = samples.estimate(variant, to: baseline, tasks: tasks)
                var cell = variant == baseline ? "1.00" : estimate.text
                if PerCallVariant.sdkOverURLSession.contains(variant) { cell += " " + mark(estimate.verdict(atMost: sdkGoal)) }
                if PerCallVariant.dpopOverBearer.contains(variant) {
                    cell = samples.estimate(variant, to: PerCallVariant.memory, tasks: tasks).text + " "
                        + mark(samples.estimate(variant, to: PerCallVariant.memory, tasks: tasks).verdict(atMost: dpopGoal)) + "ᵇ"
                }
                line += pad(cell, 32, right: true)
            }
            print(line)
        }
        print("(✓ met, ✗ missed, ? not decided: the interval spans the goal)")
        if PerCallVariant.dpopOverBearer.contains(where: samples.measured) {
            print("(ᵇ: the DPoP rows ÷ the bearer row of the same kind, \(PerCallVariant.memory); goal ≤ \(format(dpopGoal))×)")
        }
        print()
        print("median µs per call: wall / client CPU")
        print(pad("", 44) + columns.map { pad($0, 16, right: true) }.joined())
        for variant in variants {
            let cells = levels.map { tasks -> String in
                let (wall, cpu) = samples.microseconds(variant, tasks: tasks)
                return pad("\(format(wall, 0)) / \(format(cpu, 0))", 16, right: true)
            }
            print(pad(variant, 44) + cells.joined())
        }
        print()
        print("Goals (issue 39), judged from the interval:")
        for name in PerCallVariant.sdkOverURLSession {
            line(samples, "\(name) ÷ guarded minimal exchange", name, PerCallVariant.guarded, goal: guardedGoal)
        }
        for name in PerCallVariant.sdkOverURLSession {
            line(samples, "\(name) ÷ raw URLSession", name, baseline, goal: sdkGoal)
        }
        line(samples, "AHC transport (static API) ÷ raw AHC, one loop", PerCallVariant.staticAHC, PerCallVariant.rawAHC, goal: ahcGoal)
        line(samples, "observer installed ÷ none, memory store", PerCallVariant.observed, PerCallVariant.memory, goal: observerGoal)
        line(samples, "DPoP EdDSA ÷ bearer, memory store", PerCallVariant.dpopEdDSA, PerCallVariant.memory, goal: dpopGoal)
        line(samples, "DPoP ES256 ÷ bearer, memory store", PerCallVariant.dpopES256, PerCallVariant.memory, goal: dpopGoal)
        print("What the guards and AsyncHTTPClient cost, and the service over AHC (no goal):")
        line(samples, "guarded minimal exchange ÷ raw URLSession", PerCallVariant.guarded, baseline, goal: nil)
        line(samples, "raw AHC, one loop ÷ raw URLSession", PerCallVariant.rawAHC, baseline, goal: nil)
        line(samples, "static API (AHC) ÷ raw AHC, async API", PerCallVariant.staticAHC, PerCallVariant.rawAHCAsync, goal: nil)
        line(samples, "service, memory store, AHC ÷ raw AHC, one loop", PerCallVariant.memoryAHC, PerCallVariant.rawAHC, goal: nil)
        print("(throughput at 64 tasks is not a goal: on 2 shared cores the server on the same machine bounds it)")
    }

    /// One goal line: the ratio at each level, and its verdict when there is a goal.
    private static func line(_ samples: PerCallSamples, _ label: String, _ variant: String, _ baseline: String, goal: Double?) {
        guard samples.measured(variant), samples.measured(baseline) else { return }   // left out with --only
        var text = "  " + pad(label, 60)
        for tasks in PerCallSamples.levels {
            let estimate = samples.estimate(variant, to: baseline, tasks: tasks)
            text += pad(estimate.text + (goal.map { " " + estimate.verdict(atMost: $0).rawValue } ?? ""), 30, right: true)
        }
        if let goal { text += "  (goal ≤ \(format(goal)))" }
        print(text)
    }

    private static func mark(_ verdict: RatioEstimate.Verdict) -> String {
        switch verdict {
        case .met: "✓"
        case .missed: "✗"
        case .undecided: "?"
        }
    }
}
