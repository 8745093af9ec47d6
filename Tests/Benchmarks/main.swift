// Benchmarks of the SDK against the reference server, run by `scripts/bench` in release
// mode. Every comparison is measured side by side in one run (variants interleaved round
// by round), so a noisy shared machine slows all of them alike; the ratios are what to read.
//
// usage: SDKBenchmarks <server-url>   (the server must run with --test-mode)
import AppRepository
import AppSDKTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import TokenStore

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SDKBenchmarks <server-url>\n".utf8))
    exit(64)
}
let baseURL = CommandLine.arguments[1]

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Times `calls` sequential runs of `body`, returning milliseconds per call.
func perCall(_ calls: Int, _ body: () async throws -> Void) async throws -> Double {
    let clock = ContinuousClock()
    let elapsed = try await clock.measure {
        for _ in 0..<calls { try await body() }
    }
    return milliseconds(elapsed) / Double(calls)
}

do {
    let server = try Server(baseURL: baseURL)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    let memory = RepositoryService(server: server, tokenStore: InMemoryTokenStore())
    try await memory.signInAnonymously()
    let file = RepositoryService(server: server, tokenStore: FileTokenStore(fileURL: folder.appendingPathComponent("plain.json")))
    try await file.signInAnonymously()
    #if EncryptedTokenStore
    let encryptedStore = try await EncryptedFileTokenStore(
        fileURL: folder.appendingPathComponent("store.enc"), key: .keyFile(folder.appendingPathComponent("store.key")))
    let encrypted = RepositoryService(server: server, tokenStore: encryptedStore)
    try await encrypted.signInAnonymously()
    #endif

    // Raw URLSession: the same GET /v1/members/me with a token, no SDK in between.
    let raw = try await AuthAPI.signInAnonymously(server: server)

    print("SDK overhead: GET /v1/members/me, sequential calls, median ms per call over 9 rounds (order rotated each round)")
    var request = URLRequest(url: URL(string: baseURL + "/v1/members/me")!, cachePolicy: .reloadIgnoringLocalCacheData)
    request.setValue("Bearer \(raw.tokens.accessToken.rawValue)", forHTTPHeaderField: "Authorization")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    let urlSession = URLSession(configuration: configuration)
    let decoder = JSONCoding.makeDecoder()

    var variants: [(name: String, call: () async throws -> Void)] = [
        ("raw URLSession + decode", {
            let (data, response) = try await urlSession.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            _ = try decoder.decode(Member.self, from: data)
        }),
        ("static API", { _ = try await MemberAPI.fetchMe(server: server, accessToken: raw.tokens.accessToken) }),
        ("service, memory store", { _ = try await memory.members.fetchMe() }),
        ("service, file store", { _ = try await file.members.fetchMe() }),
    ]
    #if EncryptedTokenStore
    variants.append(("service, encrypted store", { _ = try await encrypted.members.fetchMe() }))
    #endif
    var results: [String: [Double]] = [:]
    for round in 0..<9 {
        for offset in 0..<variants.count {
            let variant = variants[(round + offset) % variants.count]
            results[variant.name, default: []].append(try await perCall(60, variant.call))
        }
    }
    let baseline = median(results[variants[0].name]!)
    for variant in variants {
        let value = median(results[variant.name]!)
        let name = variant.name.padding(toLength: 26, withPad: " ", startingAt: 0)
        print("  \(name) \(String(format: "%6.3f", value)) ms   \(String(format: "%4.2f", value / baseline))× raw")
    }

    print("\nRefresh storm: 100 concurrent calls, median of 5 rounds")
    var fresh: [Double] = []
    var expired: [Double] = []
    var refreshes: [Int] = []
    for _ in 0..<5 {
        let clock = ContinuousClock()
        fresh.append(milliseconds(try await clock.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await memory.members.fetchMe() } }
                try await group.waitForAll()
            }
        }))
        let testMode = TestModeClient(server: server)
        try await testMode.expireAccessTokens()
        let before = try await testMode.counters()
        expired.append(milliseconds(try await clock.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await memory.members.fetchMe() } }
                try await group.waitForAll()
            }
        }))
        let after = try await testMode.counters()
        refreshes.append(after.refreshCalls - before.refreshCalls)
    }
    print(String(format: "  fresh token:    %7.1f ms for 100 calls", median(fresh)))
    print(String(format: "  expired token:  %7.1f ms for 100 calls (%.2f× fresh), refresh requests per storm: %@",
                 median(expired), median(expired) / median(fresh), refreshes.map(String.init).joined(separator: ", ") as NSString))
    exit(refreshes.allSatisfy { $0 == 1 } ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("SDKBenchmarks: \(error)\n".utf8))
    exit(1)
}
