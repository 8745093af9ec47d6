import AppRepository
import AppSDKHarness
import ArgumentParser
import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Refresh storms: N concurrent calls right after the server expired every access token,
/// through the SDK's service and (unless `--no-naive`) through a naive client that refreshes
/// on every 401. Counts at the server: refreshes, 401s and reused refresh tokens; measures
/// the process's peak memory during each storm.
///
/// A storm may outlast a token (`--lifetime`, the server's access-token lifetime): the SDK's
/// refreshes are then judged against the lifetimes the storm spans, ceil(wall ÷ lifetime),
/// one refresh per lifetime, instead of exactly one.
struct StormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm", abstract: "Concurrent calls after a server-side expiry: the SDK against a naive client.")

    /// The SDK's refreshes ÷ the lifetimes the storm spans.
    static let refreshGoal = 1.15

    @OptionGroup var server: ServerOption
    @Option(parsing: .upToNextOption, help: "Storm sizes.") var sizes: [Int] = [100, 1000]
    @Option(help: "The server's access-token lifetime in seconds (default: longer than any storm).") var lifetime: Double?
    @Flag(inversion: .prefixedNo, help: "Also run the naive client at each size.") var naive = true

    struct Outcome {
        var refreshes = 0, unauthorized = 0, reused = 0, failed = 0
        var seconds = 0.0
        /// Resident memory before the storm and its peak during it, in bytes (0 where unknown).
        var residentBefore = 0, residentPeak = 0
        /// The first few failures, described (errors never contain a token).
        var samples: [String] = []
    }

    func validate() throws {
        guard sizes.allSatisfy({ (1...1_000_000).contains($0) }) else { throw ValidationError("--sizes must be within 1...1000000") }
        if let lifetime, !(lifetime > 0) { throw ValidationError("--lifetime must be more than 0 seconds") }
    }

    func run() async throws {
        let api = try server.makeServer(transport: URLSessionTransport(timeout: 120))
        let testMode = try server.testMode()
        print("Refresh storms: N concurrent GET /v1/members/me right after the server expired every access token"
              + (lifetime.map { ", \(format($0, 0))-second access tokens" } ?? ""))
        print("(lifetimes: ceil(wall ÷ token lifetime), the fewest refreshes the storm can make; memory: the process's peak RSS")
        print(" during the storm, and (peak − RSS before) ÷ calls, the memory each caller costs while it waits)")
        print("\(pad("client", 30))\(pad("calls", 7, right: true))\(pad("refreshes", 11, right: true))\(pad("lifetimes", 11, right: true))\(pad("401s", 7, right: true))\(pad("reused", 8, right: true))\(pad("failed", 8, right: true))\(pad("wall ms", 10, right: true))\(pad("peak MiB", 10, right: true))\(pad("KiB/call", 10, right: true))")
        var met = true
        for size in sizes {
            for naive in naive ? [false, true] : [false] {
                let outcome = try await storm(size: size, naive: naive, api: api, testMode: testMode)
                let spanned = Self.lifetimesSpanned(seconds: outcome.seconds, lifetime: lifetime)
                if !naive { met = met && Self.meetsGoal(refreshes: outcome.refreshes, spanned: spanned) && outcome.failed == 0 }
                let name = naive ? "naive (refresh on every 401)" : "SDK RepositoryService"
                let perCall = outcome.residentPeak > 0 ? format(Double(outcome.residentPeak - outcome.residentBefore) / Double(size) / 1024, 2) : "—"
                let peak = outcome.residentPeak > 0 ? format(Double(outcome.residentPeak) / 1_048_576, 1) : "—"
                print("\(pad(name, 30))\(pad("\(size)", 7, right: true))\(pad("\(outcome.refreshes)", 11, right: true))\(pad("\(spanned)", 11, right: true))\(pad("\(outcome.unauthorized)", 7, right: true))\(pad("\(outcome.reused)", 8, right: true))\(pad("\(outcome.failed)", 8, right: true))\(pad(format(outcome.seconds * 1000, 0), 10, right: true))\(pad(peak, 10, right: true))\(pad(perCall, 10, right: true))")
                if !naive { for sample in Set(outcome.samples) { print("    failure: \(sample)") } }
            }
        }
        print("Goal: the SDK's refreshes ≤ \(format(Self.refreshGoal))× the lifetimes each storm spans (exactly 1 within one lifetime), 0 failed calls: \(met ? "met" : "missed")")
        if !met { throw ExitCode(1) }
    }

    /// The lifetimes a storm of `seconds` spans: one when it is no longer than a token (or the
    /// lifetime is not given), otherwise ceil(seconds ÷ lifetime).
    static func lifetimesSpanned(seconds: Double, lifetime: Double?) -> Int {
        guard let lifetime, seconds > lifetime else { return 1 }
        return Int((seconds / lifetime).rounded(.up))
    }

    /// Whether `refreshes` is within the goal for a storm spanning `spanned` lifetimes.
    static func meetsGoal(refreshes: Int, spanned: Int) -> Bool {
        refreshes >= 1 && Double(refreshes) <= refreshGoal * Double(spanned)
    }

    private func storm(size: Int, naive: Bool, api: Server, testMode: TestModeClient) async throws -> Outcome {
        let call: @Sendable () async throws -> Void
        if naive {
            let client = NaiveClient(server: api, tokens: try await AuthAPI.signInAnonymously(server: api).tokens)
            call = { try await client.fetchMe() }
        } else {
            let service = RepositoryService(server: api, tokenStore: InMemoryTokenStore())
            _ = try await service.signInAnonymously()
            call = { _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        }
        try await call()
        try await testMode.expireAccessTokens()
        let before = try await testMode.counters()
        let residentBefore = ResidentMemory.resetPeak()
        let start = WallTime.now()
        let (failed, samples) = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<size {
                group.addTask {
                    do { try await call(); return nil } catch { return String(describing: error) }
                }
            }
            return await group.reduce(into: (0, [String]())) { result, failure in
                guard let failure else { return }
                result.0 += 1
                if result.1.count < 5 { result.1.append(failure) }
            }
        }
        let seconds = WallTime.now() - start
        let residentPeak = ResidentMemory.peak()
        let after = try await testMode.counters()
        return Outcome(refreshes: after.refreshCalls - before.refreshCalls,
                       unauthorized: after.unauthorizedResponses - before.unauthorizedResponses,
                       reused: after.errors("refresh_token_reused") - before.errors("refresh_token_reused"),
                       failed: failed, seconds: seconds,
                       residentBefore: residentBefore ?? 0, residentPeak: residentBefore == nil ? 0 : residentPeak ?? 0,
                       samples: samples)
    }
}

/// A client that does what a first attempt does: on a 401 it refreshes with the refresh
/// token it holds and retries once, with no coordination between concurrent calls.
actor NaiveClient {
    let server: Server
    var tokens: Tokens

    init(server: Server, tokens: Tokens) {
        self.server = server
        self.tokens = tokens
    }

    nonisolated func fetchMe() async throws {
        let current = await tokens
        do {
            _ = try await MemberAPI.fetchMe(server: server, accessToken: current.accessToken)
        } catch where error.statusCode == 401 {
            let renewed = try await AuthAPI.refresh(refreshToken: current.refreshToken, server: server)
            await replace(renewed)
            _ = try await MemberAPI.fetchMe(server: server, accessToken: renewed.accessToken)
        }
    }

    private func replace(_ renewed: Tokens) { tokens = renewed }
}
