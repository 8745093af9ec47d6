import Foundation

/// A ratio measured once per round (a variant's client CPU per call ÷ the baseline's in the
/// same round), summed up as the median of the rounds and a 95 % confidence interval of that
/// median. The interval is distribution-free (order statistics: the ranks n/2 ± 0.98·√n of
/// the sorted ratios, widened to whole ranks), so a noisy round or two moves neither end.
///
/// A goal is judged from the interval, never from the median alone: met when the whole
/// interval is within the goal, missed when the whole interval is past it, and not decided
/// when the interval spans it (more rounds narrow the interval).
struct RatioEstimate: Equatable {
    /// What a goal's check concluded.
    enum Verdict: String {
        case met
        case missed
        case undecided = "not decided"
    }

    /// The median of the rounds' ratios (the mean of the middle two for an even count).
    let median: Double
    /// The interval's lower end.
    let low: Double
    /// The interval's upper end.
    let high: Double
    /// How many finite ratios it was estimated from.
    let rounds: Int

    /// Estimates from `ratios`, one per round; non-finite ones (a round that measured no
    /// CPU) are left out. With none left, every figure is `nan` and every goal undecided.
    init(_ ratios: [Double]) {
        let sorted = ratios.filter(\.isFinite).sorted()
        let count = sorted.count
        rounds = count
        guard count > 0 else {
            (median, low, high) = (.nan, .nan, .nan)
            return
        }
        median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        let half = Double(count) / 2, spread = 0.98 * Double(count).squareRoot()
        // 1-based ranks, clamped to the sample: with fewer than 6 rounds the interval is the whole range.
        let lowRank = max(1, Int((half - spread).rounded(.down)))
        let highRank = min(count, Int((half + 1 + spread).rounded(.up)))
        low = sorted[lowRank - 1]
        high = sorted[highRank - 1]
    }

    /// Whether the ratio is at most `goal`, judged from the interval.
    func verdict(atMost goal: Double) -> Verdict {
        guard rounds > 0 else { return .undecided }
        if high <= goal { return .met }
        if low > goal { return .missed }
        return .undecided
    }

    /// `1.02 [1.01–1.04]`: the median and the interval, two decimals.
    var text: String { "\(format(median)) [\(format(low))–\(format(high))]" }
}
