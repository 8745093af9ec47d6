@testable import app_bench
import Testing

/// How `app-bench per-call` sums up its rounds: a median with a distribution-free interval,
/// and a goal judged from the interval rather than from one figure.
@Suite("Per-call ratios, summed up over rounds")
struct RatioEstimateTests {
    @Test("the median of an odd count is the middle ratio, of an even count the mean of the middle two")
    func median() {
        #expect(RatioEstimate([1.3, 1.0, 1.1]).median == 1.1)
        #expect(abs(RatioEstimate([1.0, 1.2, 1.1, 1.3]).median - 1.15) < 1e-12)
    }

    @Test("the interval of 30 rounds runs from the 9th to the 22nd smallest ratio")
    func intervalRanks() {
        let ratios = (1...30).map { 1 + Double($0) / 100 }.shuffled()
        let estimate = RatioEstimate(ratios)
        #expect(estimate.low == 1.09)
        #expect(estimate.high == 1.22)
        #expect(estimate.rounds == 30)
    }

    @Test("a few wild rounds move neither end of the interval")
    func outliers() {
        let steady = Array(repeating: 1.01, count: 26)
        let estimate = RatioEstimate(steady + [0.2, 0.3, 4.0, 9.0])
        #expect(estimate.low == 1.01)
        #expect(estimate.high == 1.01)
        #expect(estimate.verdict(atMost: 1.03) == .met)
    }

    @Test("a goal is met only when the whole interval is within it, missed only when the whole interval is past it")
    func verdicts() {
        let within = RatioEstimate((0..<30).map { 1.00 + Double($0 % 3) / 100 })       // 1.00–1.02
        let spanning = RatioEstimate((0..<30).map { 0.98 + Double($0 % 10) / 100 })    // 0.98–1.07, median 1.025
        let past = RatioEstimate((0..<30).map { 1.05 + Double($0 % 3) / 100 })         // 1.05–1.07
        #expect(within.verdict(atMost: 1.03) == .met)
        #expect(spanning.median <= 1.03)
        #expect(spanning.verdict(atMost: 1.03) == .undecided)
        #expect(past.verdict(atMost: 1.03) == .missed)
    }

    @Test("rounds that measured nothing are left out, and none at all decide nothing")
    func nothingMeasured() {
        #expect(RatioEstimate([1.0, .nan, .infinity, 1.02, 1.01]).rounds == 3)
        let empty = RatioEstimate([.nan])
        #expect(empty.median.isNaN)
        #expect(empty.verdict(atMost: 1.03) == .undecided)
    }

    @Test("each ratio divides a variant's CPU by raw URLSession's around it, and two variants' ratio divides those")
    func pairedWithTheBaselineAround() {
        var samples = PerCallSamples()
        // The machine's pace changes from one measurement to the next; the baseline around
        // each measurement moves with it.
        let rounds = [(400e-6, 404e-6, 400e-6, 412e-6), (800e-6, 816.08e-6, 816e-6, 832e-6),
                      (200e-6, 200.99e-6, 198e-6, 202e-6)]
        for (before, sdk, after, other) in rounds {
            samples.record("raw", tasks: 1, wall: 1e-3, cpu: before, baselineCPU: before)
            samples.record("sdk", tasks: 1, wall: 1e-3, cpu: sdk, baselineCPU: (before + after) / 2)
            samples.record("other", tasks: 1, wall: 1e-3, cpu: other, baselineCPU: (before + after) / 2)
        }
        let ratios = samples.ratios("sdk", to: "raw", tasks: 1)
        #expect(ratios.count == 3)
        #expect(ratios.allSatisfy { abs($0 - 1.01) < 1e-9 })
        let between = samples.ratios("other", to: "sdk", tasks: 1)
        #expect(between.count == 3)
        for (ratio, (_, sdk, _, other)) in zip(between, rounds) {
            #expect(abs(ratio - other / sdk) < 1e-9)
        }
        #expect(samples.ratios("sdk", to: "raw", tasks: 8).isEmpty)
    }

    @Test("a measurement at 64 tasks makes at least 2 calls per task, a whole number per task")
    func callCounts() {
        #expect(PerCallCommand.callCount(64, tasks: 1) == 64)
        #expect(PerCallCommand.callCount(64, tasks: 8) == 64)
        #expect(PerCallCommand.callCount(64, tasks: 64) == 128)
        #expect(PerCallCommand.callCount(100, tasks: 8) == 96)
    }
}
