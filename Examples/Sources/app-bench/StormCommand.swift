import AppRepository
import AppSDKHarness
import ArgumentParser
import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Refresh storms: N concurrent calls right after the server expired every access token,
/// through the SDK's service and through a naive client that refreshes on every 401. Counts
/// at the server: refreshes, 401s and reused refresh tokens.
struct StormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm", abstract: "Concurrent calls after a server-side expiry: the SDK against a naive client.")

    @OptionGroup var server: ServerOption
    @Option(parsing: .upToNextOption, help: "Storm sizes.") var sizes: [Int] = [100, 1000]

    struct Outcome {
        var refreshes = 0, unauthorized = 0, reused = 0, failed = 0
        var seconds = 0.0
    }

    func run() async throws {
        let api = try server.makeServer(transport: URLSessionTransport(timeout: 120))
        let testMode = try server.testMode()
        print("Refresh storms: N concurrent GET /v1/members/me right after the server expired every access token")
        print("\(pad("client", 34))\(pad("calls", 7, right: true))\(pad("refreshes", 11, right: true))\(pad("401s", 7, right: true))\(pad("reused", 8, right: true))\(pad("failed", 8, right: true))\(pad("wall ms", 10, right: true))")
        var sdkRefreshes: [Int] = []
        var sdkFailures = 0
        for size in sizes {
            for naive in [false, true] {
                let outcome = try await storm(size: size, naive: naive, api: api, testMode: testMode)
                if !naive { sdkRefreshes.append(outcome.refreshes); sdkFailures += outcome.failed }
                let name = naive ? "naive (refresh on every 401)" : "SDK RepositoryService"
                print("\(pad(name, 34))\(pad("\(size)", 7, right: true))\(pad("\(outcome.refreshes)", 11, right: true))\(pad("\(outcome.unauthorized)", 7, right: true))\(pad("\(outcome.reused)", 8, right: true))\(pad("\(outcome.failed)", 8, right: true))\(pad(format(outcome.seconds * 1000, 0), 10, right: true))")
            }
        }
        let met = sdkRefreshes.allSatisfy { $0 == 1 } && sdkFailures == 0
        print("Goal: exactly 1 refresh per storm and 0 failed calls for the SDK: \(met ? "met" : "missed")")
        if !met { throw ExitCode(1) }
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
        let start = WallTime.now()
        let failed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<size { group.addTask { (try? await call()) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let seconds = WallTime.now() - start
        let after = try await testMode.counters()
        return Outcome(refreshes: after.refreshCalls - before.refreshCalls,
                       unauthorized: after.unauthorizedResponses - before.unauthorizedResponses,
                       reused: after.errors("refresh_token_reused") - before.errors("refresh_token_reused"),
                       failed: failed, seconds: seconds)
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
