import Foundation

/// What one worker process did, printed by `app-bench worker` as one JSON line.
struct WorkerReport: Codable, Sendable {
    var calls = 0
    var failed = 0
    /// Failed calls whose error says it may pass (store or server unreachable for a moment).
    var transientFailures = 0
    /// The first few failures, described (errors never contain a token).
    var failureSamples: [String] = []
    var signedOut = 0
    var refreshes = 0
    /// Seconds since 1970.
    var startedAt = 0.0
    var endedAt = 0.0
    /// Where the worker ran.
    var place = WorkerPlace()
    /// What `app-bench waits` measured (`--wait-rounds`).
    var waits: WaitReport?
}
