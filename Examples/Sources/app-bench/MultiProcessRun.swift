import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import TokenStore

/// One run of many worker processes sharing one session: signs in on the shared store,
/// starts the workers, and measures at the server what they did together.
struct MultiProcessRun {
    var server: ServerOption
    var location: WorkerStore
    /// The server's access-token lifetime, in seconds.
    var lifetime: Double
    var hosts: Int
    var perHost: Int
    var workerArguments: [String]
    var folder: URL
    /// One network namespace per host (`ip netns exec`), or none: hosts are then process
    /// groups and folders only.
    var namespaces: [String] = []
    /// The kind of DPoP key the session is bound to, or none: a bearer session.
    var dpop = DPoPOption()

    struct Result {
        var processes = 0
        var calls = 0
        var failed = 0
        var transientFailures = 0
        var signOuts = 0
        var refreshes = 0
        var unauthorized = 0
        var reused = 0
        var seconds = 0.0
        var killed = 0
        var samples: [String] = []
        /// Where each host's workers ran (by host; killed workers are missing).
        var places: [[WorkerPlace]] = []
        /// A DPoP-bound session's keys: the thumbprints of the keys whose families the server
        /// refreshed during the run (one: the stored key), `nil` for a bearer session.
        var keysSeen: Set<String>?
        /// Whether the one key the server saw is the key stored at sign-in.
        var storedKeySeen = false
        /// The server's DPoP nonce challenges during the run (0 without nonces).
        var nonceChallenges = 0
        /// One refresh per lifetime after the sign-in's token.
        var minimum: Double { seconds / lifetime }
        var lifetime = 1.0
        var ratio: Double { Double(refreshes) / minimum }
    }

    /// Runs the workers; `during` runs alongside them (faults), with the pool.
    func run(during: @Sendable (WorkerPool) async throws -> Int = { _ in 0 }) async throws -> Result {
        let api = try server.makeServer()
        let testMode = try server.testMode()
        var configuration = RepositoryService.Configuration.appAPI
        configuration.dpop = try dpop.configuration()
        let store = try await location.open()
        let service = RepositoryService(server: api, tokenStore: store, configuration: configuration)
        _ = try await service.signInAnonymously()
        let storedKey = try await store.load()?.dpopKey
        if dpop.dpop != nil, storedKey == nil { throw NotBound() }
        let before = try await testMode.counters()
        let dpopBefore = dpop.dpop == nil ? nil : try await DPoPCounters.fetch(from: api)
        let signedInAt = WallTime.epoch()
        let pool = WorkerPool()
        for host in 0..<hosts {
            try pool.start(host: host, count: perHost, folder: folder.appendingPathComponent("host-\(host)"),
                           namespace: namespaces.isEmpty ? nil : namespaces[host],
                           arguments: server.arguments + location.arguments + dpop.arguments + workerArguments)
        }
        let killed = try await during(pool)
        let outcomes = await pool.finish()
        let after = try await testMode.counters()
        var result = Result(processes: outcomes.count, killed: killed, lifetime: lifetime)
        result.places = (0..<hosts).map { host in outcomes.filter { $0.host == host }.compactMap { $0.report?.place } }
        var endedAt = signedInAt
        for outcome in outcomes {
            guard let report = outcome.report else { continue }
            result.calls += report.calls
            result.failed += report.failed
            result.transientFailures += report.transientFailures
            result.signOuts += report.signedOut
            result.samples += report.failureSamples.prefix(2)
            endedAt = max(endedAt, report.endedAt)
        }
        let reported = outcomes.filter { $0.report != nil }.count
        if reported + killed < outcomes.count {
            result.samples.append("\(outcomes.count - reported - killed) workers ended without a report")
            result.failed += outcomes.count - reported - killed
        }
        result.seconds = endedAt - signedInAt
        result.refreshes = after.refreshCalls - before.refreshCalls
        result.unauthorized = after.unauthorizedResponses - before.unauthorizedResponses
        result.reused = after.errors("refresh_token_reused") - before.errors("refresh_token_reused")
        if let dpopBefore {
            let dpopAfter = try await DPoPCounters.fetch(from: api)
            let keys = dpopAfter.keysRefreshed(since: dpopBefore)
            result.keysSeen = keys
            result.storedKeySeen = storedKey.map { keys == [$0.thumbprint] } ?? false
            result.nonceChallenges = dpopAfter.nonceChallenges - dpopBefore.nonceChallenges
        }
        _ = try? await service.signOut()
        return result
    }

    /// The sign-in stored no DPoP key although `--dpop` asked for one.
    struct NotBound: LocalizedError, CustomStringConvertible {
        var description: String { "the sign-in stored no DPoP key: is the server started with --dpop required?" }
        var errorDescription: String? { description }
    }

    static let header = "\(pad("store", 22))\(pad("processes", 11, right: true))\(pad("calls", 8, right: true))\(pad("seconds", 9, right: true))\(pad("refreshes", 11, right: true))\(pad("minimum", 9, right: true))\(pad("ratio", 7, right: true))\(pad("401s", 6, right: true))\(pad("reused", 8, right: true))\(pad("sign-outs", 11, right: true))\(pad("failed", 8, right: true))\(pad("keys", 6, right: true))"

    static func row(_ name: String, _ r: Result) -> String {
        "\(pad(name, 22))\(pad("\(r.processes)", 11, right: true))\(pad("\(r.calls)", 8, right: true))\(pad(format(r.seconds, 1), 9, right: true))\(pad("\(r.refreshes)", 11, right: true))\(pad(format(r.minimum, 1), 9, right: true))\(pad(format(r.ratio), 7, right: true))\(pad("\(r.unauthorized)", 6, right: true))\(pad("\(r.reused)", 8, right: true))\(pad("\(r.signOuts)", 11, right: true))\(pad("\(r.failed)", 8, right: true))\(pad(r.keysSeen.map { "\($0.count)" } ?? "-", 6, right: true))"
    }

    /// Whether a run without faults met the goal: refreshes ≤ 1.15× the minimum, no sign-out,
    /// no failed call and, for a DPoP-bound session, one key seen by the server: the stored one.
    static func metGoal(_ r: Result) -> Bool {
        r.ratio <= 1.15 && r.signOuts == 0 && r.failed == 0 && (r.keysSeen == nil || r.storedKeySeen)
    }
}

extension ServerOption {
    /// The option again, for a worker.
    var arguments: [String] { ["--server", server] }
}
