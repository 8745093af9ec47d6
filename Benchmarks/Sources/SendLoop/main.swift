// `Server.send` (or the hand-written baseline) in a loop: prints process CPU and wall time
// per call, which the harness reads only at 10 ms resolution on Linux; and a loop to run
// under `valgrind --tool=callgrind` where valgrind works (see README.md).
//
//     .build/release/SendLoop send 100000
//     .build/release/SendLoop baseline 100000
import BenchFixtures
import Foundation
import NetworkService

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? "send"
let calls = arguments.dropFirst().first.flatMap { Int($0) }.map { min(max($0, 1), 10_000_000) } ?? 1_000
let server = try Server(baseURL: Fixtures.baseURL, transport: Fixtures.transport)
let token = AccessToken(Fixtures.accessToken)

/// Seconds of CPU this process has used, all threads.
func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// One call as a client writing it by hand would: an `HTTPRequest`, the transport, `JSONDecoder`.
func baselineCall() async throws -> Post {
    let url = URL(string: Fixtures.baseURL + "/v1/posts/42")!
    let headers = ["Accept": "application/json", "Authorization": "Bearer " + Fixtures.accessToken]
    let (data, response) = try await Fixtures.transport.send(HTTPRequest(method: .get, url: url, headerFields: headers))
    guard (200...299).contains(response.statusCode) else { throw URLError(.badServerResponse) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(Post.self, from: data)
}

/// The loop, off the main actor: top-level code runs on it, and every `await` would then hop
/// to the global executor and back (a thread switch per call, ~40 µs, not the SDK's cost).
nonisolated func run(mode: String, calls: Int, server: Server, token: AccessToken) async throws -> Int {
    var checksum = 0
    for _ in 0..<calls {
        switch mode {
        case "baseline": checksum &+= try await baselineCall().id
        default: checksum &+= try await server.send(PostEndpoint(), as: Post.self, accessToken: token).id
        }
    }
    return checksum
}

let wallStart = Date()
let cpuStart = processCPUSeconds()
let checksum = try await run(mode: mode, calls: calls, server: server, token: token)
let cpu = processCPUSeconds() - cpuStart
let wall = Date().timeIntervalSince(wallStart)
print(String(format: "%@: %d calls, CPU %.2f µs/call, wall %.2f µs/call (checksum %d)",
             mode, calls, cpu / Double(calls) * 1e6, wall / Double(calls) * 1e6, checksum))
