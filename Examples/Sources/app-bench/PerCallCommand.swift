import AppRepository
import ArgumentParser
import AsyncHTTPClientTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import SessionEngine
import Synchronization
import TokenStore

/// Per call: `GET /v1/members/me` through each way of calling it, one at a time and from 8
/// and 64 concurrent tasks; wall time and client CPU (getrusage) per call, as ratios of raw
/// URLSession measured in the same run.
struct PerCallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "per-call", abstract: "Wall time and client CPU per call, for each way of calling the API.")

    @OptionGroup var server: ServerOption
    @Option(help: "Rounds; the variants are interleaved in each round, order rotated.") var rounds = 5
    @Option(help: "Calls per variant, concurrency and round.") var calls = 256

    struct Variant {
        let name: String
        let call: @Sendable () async throws -> Void
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let urlSessionServer = try server.makeServer()
        let ahc = AsyncHTTPClientTransport.owningClient(timeout: 60)
        let ahcServer = try server.makeServer(transport: ahc)
        do {
            let variants = try await makeVariants(urlSessionServer, ahcServer, folder: folder)
            try await measure(variants)
        } catch {
            try? await ahc.shutdown()
            throw error
        }
        try await ahc.shutdown()
    }

    private func makeVariants(_ server: Server, _ ahcServer: Server, folder: URL) async throws -> [Variant] {
        func signedIn(_ store: any TokenStore, on server: Server) async throws -> RepositoryService {
            let service = RepositoryService(server: server, tokenStore: store)
            _ = try await service.signInAnonymously()
            return service
        }
        let memory = try await signedIn(InMemoryTokenStore(), on: server)
        // The same with an observer installed (issue #21): it must cost nothing on a call that needs no refresh.
        var observed = RepositoryService.Configuration.appAPI
        let records = Mutex(0)
        observed.observer = SessionObserver { _ in records.withLock { $0 += 1 } }
        let observedMemory = RepositoryService(server: server, tokenStore: InMemoryTokenStore(), configuration: observed)
        _ = try await observedMemory.signInAnonymously()
        let file = try await signedIn(FileTokenStore(fileURL: folder.appendingPathComponent("plain.json")), on: server)
        let encrypted = try await signedIn(try await EncryptedFileTokenStore(
            fileURL: folder.appendingPathComponent("store.enc"), key: .keyFile(folder.appendingPathComponent("store.key"))), on: server)
        let ahcMemory = try await signedIn(InMemoryTokenStore(), on: ahcServer)
        let token = try await AuthAPI.signInAnonymously(server: server).tokens.accessToken

        // Raw URLSession: the same request and decoding with no SDK in between.
        var request = URLRequest(url: URL(string: self.server.server + "/v1/members/me")!, cachePolicy: .reloadIgnoringLocalCacheData)
        request.setValue("Bearer \(token.rawValue)", forHTTPHeaderField: "Authorization")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration)
        let raw = request
        return [
            Variant(name: "raw URLSession + decode") {
                let (data, response) = try await session.data(for: raw)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: data)
            },
            Variant(name: "static API (URLSession)") { _ = try await MemberAPI.fetchMe(server: server, accessToken: token) },
            Variant(name: "service, memory store") { _ = try await memory.members.fetchMe() },
            Variant(name: "service, memory store, observer installed") { _ = try await observedMemory.members.fetchMe() },
            Variant(name: "service, file store") { _ = try await file.members.fetchMe() },
            Variant(name: "service, encrypted store") { _ = try await encrypted.members.fetchMe() },
            Variant(name: "static API (AsyncHTTPClient)") { _ = try await MemberAPI.fetchMe(server: ahcServer, accessToken: token) },
            Variant(name: "service, memory, AHC") { _ = try await ahcMemory.members.fetchMe() },
        ]
    }

    /// Runs `calls` calls of `variant` from `tasks` tasks; returns wall and CPU seconds per call.
    private func time(_ variant: Variant, tasks: Int) async throws -> (wall: Double, cpu: Double) {
        let perTask = calls / tasks
        let (wall0, cpu0) = (WallTime.now(), CPUTime.now())
        if tasks == 1 {
            for _ in 0..<calls { try await variant.call() }
        } else {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask { for _ in 0..<perTask { try await variant.call() } }
                }
                try await group.waitForAll()
            }
        }
        let count = Double(tasks == 1 ? calls : perTask * tasks)
        return ((WallTime.now() - wall0) / count, (CPUTime.now() - cpu0) / count)
    }

    private func measure(_ variants: [Variant]) async throws {
        let levels = [1, 8, 64]
        // Warm up every variant (connections, caches) before measuring.
        for variant in variants { _ = try await time(variant, tasks: 8) }
        var wall: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        for round in 0..<rounds {
            for level in levels {
                for offset in 0..<variants.count {
                    let variant = variants[(round + offset) % variants.count]
                    let (w, c) = try await time(variant, tasks: level)
                    wall["\(variant.name)|\(level)", default: []].append(w)
                    cpu["\(variant.name)|\(level)", default: []].append(c)
                }
            }
        }
        print("Per call: GET /v1/members/me, \(calls) calls per cell, median of \(rounds) rounds (variants interleaved, order rotated)")
        print("wall µs per call / client CPU µs per call / CPU ÷ raw URLSession at the same concurrency")
        var header = pad("", 44)
        for level in levels { header += pad(level == 1 ? "sequential" : "\(level) tasks", 28, right: true) }
        print(header)
        let baseline = variants[0].name
        for variant in variants {
            var line = pad(variant.name, 44)
            for level in levels {
                let w = median(wall["\(variant.name)|\(level)"]!) * 1e6
                let c = median(cpu["\(variant.name)|\(level)"]!) * 1e6
                let ratio = c / (median(cpu["\(baseline)|\(level)"]!) * 1e6)
                line += pad("\(format(w, 0)) / \(format(c, 0)) / \(format(ratio))×", 28, right: true)
            }
            print(line)
        }
        print()
        print("Goals (client CPU per call, sequential):")
        let sequentialCPU = { (name: String) in median(cpu["\(name)|1"]!) }
        let rawCPU = sequentialCPU(baseline)
        for (name, goal) in [("service, memory store", 1.02), ("service, file store", 1.03), ("service, encrypted store", 1.03)] {
            let ratio = sequentialCPU(name) / rawCPU
            print("  \(pad(name, 28)) ÷ raw URLSession: \(format(ratio))× (goal ≤ \(format(goal))) \(ratio <= goal ? "met" : "missed")")
        }
        let observerCPU = sequentialCPU("service, memory store, observer installed") / sequentialCPU("service, memory store")
        print("  observer installed ÷ none, memory store, CPU per call: \(format(observerCPU))× (goal ≤ 1.02) \(observerCPU <= 1.02 ? "met" : "missed")")
        let transportCPU = sequentialCPU("static API (AsyncHTTPClient)") / sequentialCPU("static API (URLSession)")
        print("  AsyncHTTPClient ÷ URLSession transport, CPU per call: \(format(transportCPU))× (goal ≤ 0.33) \(transportCPU <= 0.33 ? "met" : "missed")")
        let throughput = median(wall["static API (URLSession)|64"]!) / median(wall["static API (AsyncHTTPClient)|64"]!)
        print("  AsyncHTTPClient ÷ URLSession transport, throughput at 64 tasks: \(format(throughput))× (goal ≥ 3) \(throughput >= 3 ? "met" : "missed")")
    }
}
