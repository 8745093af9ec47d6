import AppSDKHarness
import AppSDKTesting
import Foundation
import InMemoryTracing
import Logging
import MetricsTestKit
import NetworkService
import SessionEngine
import SessionObservability
import Synchronization
import Testing
import TokenStore
import Tracing

/// Issue #21, item 2: the engine's records as log lines, metrics and a span per refresh, checked
/// with the libraries' in-memory backends, for a storm of calls and for a sign-out.
@Suite("Session telemetry: log lines, metrics and spans from the engine's records")
struct SessionTelemetryTests {
    let clock = TestClock()
    let server = TokenServer()
    let logs = LogLines()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()

    func makeService() throws -> SessionService {
        let telemetry = SessionTelemetry(logger: Logger(label: "session") { _ in logs.handler }, metricsFactory: metrics, tracer: tracer)
        var configuration = SessionService.Configuration.json(
            JSONTokenRefresh(path: "/token/refresh", refreshTokenField: "refresh", accessTokenKey: "access", refreshTokenKey: "refresh"))
        let clock = clock
        configuration.now = { clock.now }
        configuration.sleep = { clock.advance(by: $0) }
        configuration.refreshRetry.random = { 0 }
        configuration.observer = telemetry.observer
        let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: server),
                                     tokenStore: InMemoryTokenStore(), configuration: configuration)
        return service
    }

    func me(_ service: SessionService) async throws {
        try await service.request { server, token in try await server.send(MeEndpoint(), accessToken: token) }
    }

    @Test("a storm of calls on an expired token: one span, one rotation counted, debug lines only, the waits timed")
    func storm() async throws {
        let service = try makeService()
        try await service.startSession(tokens: server.signIn(), accountID: "kim")
        clock.advance(by: 901)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await me(service) } }
            try await group.waitForAll()
        }
        #expect(server.refreshCalls == 1)
        #expect(try metrics.expectCounter("session_refreshes_total", [("outcome", "rotated")]).totalValue == 1)
        #expect(metrics.counters(label: "session_refreshes_total").map(\.totalValue).reduce(0, +) == 1)
        #expect(try metrics.expectTimer("session_refresh_duration_seconds").values.count == 1)
        #expect(try metrics.expectTimer("session_section_wait_seconds").values.count == 1)
        #expect(metrics.counters(label: "session_ended_total").isEmpty)

        let spans = tracer.finishedSpans
        #expect(spans.count == 1)
        #expect(spans.first?.operationName == "session.refresh")
        #expect(spans.first?.attributes["session.refresh.outcome"]?.toSpanAttribute() == "rotated")
        #expect(spans.first?.attributes["session.refresh.cause"]?.toSpanAttribute() == "access token due")
        #expect(spans.first?.status == nil)

        let lines = logs.lines
        #expect(lines.contains { $0.level == .debug && $0.message == "server rotated the tokens" && $0.metadata["refresh_id"] == "1" })
        #expect(lines.allSatisfy { $0.level == .debug })
        #expect(lines.allSatisfy { line in !server.issuedTokens.contains { "\(line.message) \(line.metadata)".contains($0) } })
    }

    @Test("a sign-out by the server: notice lines, the session ended counted by reason, the span ends in error")
    func signOut() async throws {
        let service = try makeService()
        try await service.startSession(tokens: server.signIn(), accountID: "kim")
        server.rejectsRefresh.withLock { $0 = true }
        clock.advance(by: 901)
        await #expect(throws: SessionError.self) { try await me(service) }

        #expect(try metrics.expectCounter("session_ended_total", [("reason", "refresh_token_rejected")]).totalValue == 1)
        #expect(try metrics.expectCounter("session_refreshes_total", [("outcome", "rejected")]).totalValue == 1)
        #expect(try metrics.expectCounter("session_refreshes_total", [("outcome", "rotated")]).totalValue == 0)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["session.refresh.outcome"]?.toSpanAttribute() == "rejected")
        let notices = logs.lines.filter { $0.level == .notice }.map(\.message)
        #expect(notices == ["server rejected the refresh token", "session ended"])
    }

    @Test("a refresh that could not connect twice: warning lines, two retries counted, span events, then success")
    func transientRetried() async throws {
        let service = try makeService()
        try await service.startSession(tokens: server.signIn(), accountID: "kim")
        server.failures.withLock { $0 = 2 }
        clock.advance(by: 901)
        try await me(service)
        #expect(try metrics.expectCounter("session_refresh_retries_total").totalValue == 2)
        #expect(logs.lines.filter { $0.level == .warning }.count == 2)
        #expect(logs.lines.filter { $0.level == .info && $0.message == "refresh retry scheduled" }.count == 2)
        #expect(tracer.finishedSpans.first?.events.map(\.name) == ["retry scheduled", "retry scheduled"])
        #expect(try metrics.expectCounter("session_refreshes_total", [("outcome", "rotated")]).totalValue == 1)
    }

    @Test("an exceeded refresh limit is counted and logged as an error")
    func refreshLimitExceeded() async throws {
        let service = try makeService()
        try await service.startSession(tokens: server.signIn(), accountID: "kim")
        server.refusesEveryAccessToken.withLock { $0 = true }
        for _ in 0..<6 { try? await me(service) }
        #expect(try metrics.expectCounter("session_refresh_limit_exceeded_total").totalValue == 1)
        #expect(logs.lines.contains { $0.level == .error && $0.message == "refresh limit exceeded: refreshing refused" })
    }
}

/// `GET /me`.
struct MeEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/me" }
}

/// A token server: rotates on `POST /token/refresh` (or refuses, or cannot be reached), accepts
/// the latest access token on `GET /me`.
final class TokenServer: HTTPTransport {
    private let state = Mutex((issued: 0, current: "", refreshCalls: 0))
    let rejectsRefresh = Mutex(false)
    let refusesEveryAccessToken = Mutex(false)
    /// How many refresh calls still fail to connect.
    let failures = Mutex(0)

    var refreshCalls: Int { state.withLock { $0.refreshCalls } }
    var issuedTokens: [String] {
        let count = state.withLock { $0.issued }
        return (1...max(count, 1)).flatMap { ["secret-access-\($0)", "secret-refresh-\($0)"] }
    }

    func signIn() -> Tokens {
        let n = issue()
        return Tokens(accessToken: AccessToken("secret-access-\(n)"), refreshToken: "secret-refresh-\(n)", expiresIn: 900)
    }

    private func issue() -> Int {
        state.withLock { state in
            state.issued += 1
            state.current = "secret-access-\(state.issued)"
            return state.issued
        }
    }

    func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        func reply(_ status: Int, _ body: String) -> (Data, HTTPResponse) {
            (Data(body.utf8), HTTPResponse(statusCode: status, headerFields: ["Content-Type": "application/json"]))
        }
        if request.url.path == "/me" {
            let current = state.withLock { $0.current }
            let accepted = !refusesEveryAccessToken.withLock { $0 } && request.value(forHeaderField: "Authorization") == "Bearer \(current)"
            return accepted ? reply(200, "{}") : reply(401, #"{"detail":"refused"}"#)
        }
        state.withLock { $0.refreshCalls += 1 }
        let failing = failures.withLock { failures in
            defer { failures = max(failures - 1, 0) }
            return failures > 0
        }
        if failing { throw TransportError(.cannotConnect) }
        if rejectsRefresh.withLock({ $0 }) { return reply(401, #"{"detail":"Token is invalid","code":"token_not_valid"}"#) }
        let n = issue()
        return reply(200, #"{"access":"secret-access-\#(n)","refresh":"secret-refresh-\#(n)","expires_in":900}"#)
    }
}

/// A swift-log handler that keeps every line.
final class LogLines: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let collected = Mutex<[Line]>([])
    var lines: [Line] { collected.withLock { $0 } }

    var handler: Handler { Handler(owner: self) }

    func append(_ line: Line) { collected.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let owner: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            owner.append(Line(level: event.level, message: "\(event.message)",
                              metadata: (event.metadata ?? [:]).mapValues { "\($0)" }))
        }
    }
}
