import BenchFixtures
import Benchmark
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import SessionEngine
import TokenStore

// Each layer of a call, measured against `MemoryTransport` (no sockets), and a hand-written
// baseline doing the minimum a client must do (build a URLRequest, decode with JSONDecoder).
// Malloc counts are deterministic, so they compare across runs on a noisy machine.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 100,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    let server = try! Server(baseURL: Fixtures.baseURL, transport: Fixtures.transport)
    let token = AccessToken(Fixtures.accessToken)
    let endpoint = PostEndpoint()

    // MARK: baseline

    Benchmark("baseline: URLRequest by hand") { benchmark in
        let base = URL(string: Fixtures.baseURL)!
        for _ in benchmark.scaledIterations {
            var request = URLRequest(url: base.appendingPathComponent("v1/posts/42"))
            request.httpMethod = "GET"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("Bearer " + Fixtures.accessToken, forHTTPHeaderField: "Authorization")
            blackHole(request)
        }
    }

    Benchmark("baseline: JSONDecoder(.iso8601)") { benchmark in
        for _ in benchmark.scaledIterations {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            blackHole(try decoder.decode(Post.self, from: Fixtures.body))
        }
    }

    Benchmark("baseline: request + transport + decode") { benchmark in
        let base = URL(string: Fixtures.baseURL)!
        let transport = Fixtures.transport
        for _ in benchmark.scaledIterations {
            var request = URLRequest(url: base.appendingPathComponent("v1/posts/42"))
            request.httpMethod = "GET"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("Bearer " + Fixtures.accessToken, forHTTPHeaderField: "Authorization")
            blackHole(request)
            let (data, response) = try await transport.send(
                HTTPRequest(method: .get, url: request.url!, headerFields: request.allHTTPHeaderFields ?? [:]))
            guard (200...299).contains(response.statusCode) else { fatalError("not 2xx") }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            blackHole(try decoder.decode(Post.self, from: data))
        }
    }

    Benchmark("baseline: HTTPRequest by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            let url = URL(string: Fixtures.baseURL + "/v1/posts/42")!
            let headers = ["Accept": "application/json", "Authorization": "Bearer " + Fixtures.accessToken]
            blackHole(HTTPRequest(method: .get, url: url, headerFields: headers))
        }
    }

    Benchmark("baseline: HTTPRequest by hand + transport + decode") { benchmark in
        let transport = Fixtures.transport
        for _ in benchmark.scaledIterations {
            let url = URL(string: Fixtures.baseURL + "/v1/posts/42")!
            let headers = ["Accept": "application/json", "Authorization": "Bearer " + Fixtures.accessToken]
            let (data, response) = try await transport.send(HTTPRequest(method: .get, url: url, headerFields: headers))
            guard (200...299).contains(response.statusCode) else { fatalError("not 2xx") }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            blackHole(try decoder.decode(Post.self, from: data))
        }
    }

    // MARK: the SDK's layers

    Benchmark("sdk: makeRequest (Endpoint → HTTPRequest)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try server.makeRequest(for: endpoint, accessToken: token))
        }
    }

    Benchmark("sdk: EndpointPath.rendered") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(endpoint.path.rendered)
        }
    }

    Benchmark("sdk: classify + JSONCoding decode") { benchmark in
        for _ in benchmark.scaledIterations {
            guard Fixtures.okResponse.isSuccess else { fatalError("not 2xx") }
            blackHole(try JSONCoding.makeDecoder().decode(Post.self, from: Fixtures.body))
        }
    }

    Benchmark("sdk: JSONCoding.parse (one date)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(JSONCoding.parse("2026-11-22T10:00:00Z"))
        }
    }

    Benchmark("sdk: Server.send") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await server.send(endpoint, as: Post.self, accessToken: token))
        }
    }

    Benchmark("sdk: request(handler:) memory store") { benchmark in
        let store = InMemoryTokenStore(credentials: Credentials(
            accessToken: Fixtures.accessToken, refreshToken: "bench-refresh-token",
            accessTokenExpiresAt: Date().addingTimeInterval(86_400), accountID: "kim"))
        let service = SessionService(server: server, tokenStore: store,
                                     configuration: .json(JSONTokenRefresh(path: "/token/refresh")))
        for _ in benchmark.scaledIterations {
            blackHole(try await service.request { server, token in
                try await server.send(endpoint, as: Post.self, accessToken: token)
            })
        }
    }
}
