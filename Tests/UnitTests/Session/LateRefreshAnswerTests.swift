import AppSDKTesting
import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue #34, item 5 (and #39): a refresh whose answer arrives after the new token's lifetime
/// has passed (a starved server or machine) must not hand out that token. It is refreshed once
/// more; if that answer is spent too, the call fails as a transient refresh failure, the
/// session kept, and no handler ever sees an expired token.
@Suite("A refresh answer that arrives after its token's lifetime is never handed out")
struct LateRefreshAnswerTests {
    /// A JSON token server on the test's clock: each refresh issues `A<n>`/`R<n>` for
    /// `expires_in: 3` seconds, then its answer takes `lateness[n]` seconds to arrive
    /// (0 when not listed). `GET /me` records the token it was called with and whether that
    /// token had expired on the server's clock.
    final class LateServer: Sendable {
        struct State {
            var refreshes = 0
            var lateness: [Int: TimeInterval] = [:]
            var issued: [String: Date] = [:]   // access token → expiry
            var calls: [(token: String, expired: Bool)] = []
        }
        let state: TestMutex<State>
        let clock: TestClock
        let transport: TestTransport

        init(clock: TestClock, lateness: [Int: TimeInterval]) {
            let state = TestMutex(State(lateness: lateness))
            self.state = state
            self.clock = clock
            transport = TestTransport { request in
                if request.target == "/refresh" {
                    let (n, late) = state.withLock { state -> (Int, TimeInterval) in
                        state.refreshes += 1
                        state.issued["A\(state.refreshes)"] = clock.now.addingTimeInterval(3)
                        return (state.refreshes, state.lateness[state.refreshes] ?? 0)
                    }
                    clock.advance(by: late)
                    return .json(200, #"{"access_token":"A\#(n)","refresh_token":"R\#(n)","expires_in":3}"#)
                }
                let token = request.headerFields["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
                let expired = state.withLock { state -> Bool in
                    let expired = (state.issued[token] ?? .distantPast) <= clock.now
                    state.calls.append((token, expired))
                    return expired
                }
                return expired ? .json(401, #"{"detail":"expired"}"#) : .json(200, "{}")
            }
        }
    }

    struct Me: Endpoint {
        typealias Response = JSONValue
        var path: EndpointPath { "/me" }
        var method: HTTPMethod { .get }
    }

    func service(_ fake: LateServer) async throws -> SessionService {
        var configuration = SessionService.Configuration.json(JSONTokenRefresh(path: "/refresh"))
        let clock = fake.clock
        configuration.now = { clock.now }
        configuration.sleep = { clock.advance(by: $0) }
        let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: fake.transport),
                                     tokenStore: InMemoryTokenStore(), configuration: configuration)
        fake.state.withLock { $0.issued["A0"] = clock.now.addingTimeInterval(3) }
        try await service.startSession(tokens: Tokens(accessToken: AccessToken("A0"), refreshToken: "R0", expiresIn: 3), accountID: "kim")
        return service
    }

    @Test("an answer 4 s late for a 3-second token: refreshed once more, and the call gets the second token")
    func spentAnswerIsRefreshedOnceMore() async throws {
        let fake = LateServer(clock: TestClock(), lateness: [1: 4])
        let service = try await service(fake)
        fake.clock.advance(by: 3.5)
        _ = try await service.request { server, token in try await server.send(Me(), accessToken: token) }
        let state = fake.state.withLock { $0 }
        #expect(state.refreshes == 2)
        #expect(state.calls.map(\.token) == ["A2"])
        #expect(state.calls.allSatisfy { !$0.expired })
    }

    @Test("two spent answers in a row: a transient refresh failure, the session kept, no call with an expired token")
    func twoSpentAnswersFailTransiently() async throws {
        let fake = LateServer(clock: TestClock(), lateness: [1: 4, 2: 4])
        let service = try await service(fake)
        fake.clock.advance(by: 3.5)
        let error = await #expect(throws: SessionError.self) {
            _ = try await service.request { server, token in try await server.send(Me(), accessToken: token) }
        }
        #expect(error?.kind == .refreshFailed)
        #expect(error?.isTransient == true)
        #expect(fake.state.withLock { $0.calls.isEmpty }, "the handler was called with a spent token")
        // The session is kept: the next call, with a prompt server, works with a new token.
        _ = try await service.request { server, token in try await server.send(Me(), accessToken: token) }
        #expect(fake.state.withLock { $0.calls.map(\.token) } == ["A3"])
    }

    @Test("an answer late by less than the lifetime's last tenth: used as it is, one refresh")
    func slightlyLateAnswerIsUsed() async throws {
        let fake = LateServer(clock: TestClock(), lateness: [1: 1])
        let service = try await service(fake)
        fake.clock.advance(by: 3.5)
        _ = try await service.request { server, token in try await server.send(Me(), accessToken: token) }
        #expect(fake.state.withLock { $0.refreshes } == 1)
        #expect(fake.state.withLock { $0.calls.map(\.token) } == ["A1"])
    }
}
