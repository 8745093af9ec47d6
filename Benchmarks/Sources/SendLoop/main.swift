// `Server.send` in a loop, for `valgrind --tool=callgrind` (see README.md): instructions
// and call counts per function, which the harness cannot give on this machine.
import BenchFixtures
import Foundation
import NetworkService

let calls = Int(CommandLine.arguments.dropFirst().first ?? "") .map { min(max($0, 1), 1_000_000) } ?? 1_000
let server = try Server(baseURL: Fixtures.baseURL, transport: Fixtures.transport)
let token = AccessToken(Fixtures.accessToken)
var ids = 0
for _ in 0..<calls {
    ids &+= try await server.send(PostEndpoint(), as: Post.self, accessToken: token).id
}
print("\(calls) calls, checksum \(ids)")
