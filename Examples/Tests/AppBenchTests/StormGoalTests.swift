@testable import app_bench
import Testing

@Suite("A storm's refreshes are judged against the lifetimes it spans")
struct StormGoalTests {
    @Test("a storm within one token's lifetime, or with no lifetime given, spans one lifetime")
    func shortStormSpansOne() {
        #expect(StormCommand.lifetimesSpanned(seconds: 2.9, lifetime: 3) == 1)
        #expect(StormCommand.lifetimesSpanned(seconds: 3, lifetime: 3) == 1)
        #expect(StormCommand.lifetimesSpanned(seconds: 500, lifetime: nil) == 1)
    }

    @Test("a storm longer than a token spans ceil(wall ÷ lifetime) lifetimes")
    func longStormSpansMany() {
        #expect(StormCommand.lifetimesSpanned(seconds: 3.1, lifetime: 3) == 2)
        #expect(StormCommand.lifetimesSpanned(seconds: 38.5, lifetime: 3) == 13)
    }

    @Test("refreshes meet the goal up to 1.15× the lifetimes spanned, and at least one")
    func goal() {
        #expect(StormCommand.meetsGoal(refreshes: 1, spanned: 1))
        #expect(!StormCommand.meetsGoal(refreshes: 2, spanned: 1))
        #expect(StormCommand.meetsGoal(refreshes: 14, spanned: 13))
        #expect(!StormCommand.meetsGoal(refreshes: 15, spanned: 13))
        #expect(!StormCommand.meetsGoal(refreshes: 0, spanned: 1))
    }

    @Test("a wait percentile is the nearest rank, in milliseconds")
    func percentile() {
        let waits = (1...100).map { Double($0) / 1000 }
        #expect(WaitsCommand.milliseconds(waits, 0.50) == "50.0")
        #expect(WaitsCommand.milliseconds(waits, 0.99) == "99.0")
        #expect(WaitsCommand.milliseconds([], 0.99) == "—")
    }
}
