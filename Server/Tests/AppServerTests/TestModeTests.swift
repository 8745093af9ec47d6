import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Test mode")
struct TestModeTests {
    @Test("test-mode routes are 404 when test mode is off")
    func offByDefault() async throws {
        try await TestServer.run { api in
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/_test/counters"), (.post, "/v1/_test/reset"),
                (.post, "/v1/_test/expire-access-tokens"), (.post, "/v1/_test/refresh-faults"),
            ] {
                let response = try await api.send(method, path, json: method == .post ? #"{"mode":"fail","count":1}"# : nil)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorCode == "not_found", "\(path)")
            }
        }
    }

    @Test("counters count refresh calls, 401s and routes; reset zeroes them")
    func counters() async throws {
        try await TestServer.run(configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("xena@example.com")
            _ = try await api.refresh(session.tokens.refreshToken)
            _ = try await api.send(.get, "/v1/members/me")
            _ = try await api.send(.get, "/v1/posts/1", token: session.tokens.accessToken)
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.refreshCalls == 1)
            #expect(counters.unauthorizedResponses == 1)
            #expect(counters.routes["POST /v1/auth/refresh"] == 1)
            #expect(counters.routes["GET /v1/posts/{id}"] == 1)
            #expect(try await api.send(.post, "/v1/_test/reset").status == .noContent)
            let zero = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(zero.refreshCalls == 0)
            #expect(zero.unauthorizedResponses == 0)
        }
    }

    @Test("expire-access-tokens expires earlier tokens; tokens issued right after work, in the same second")
    func expireAccessTokens() async throws {
        let clock = TestClock()  // frozen: everything happens in the same second
        try await TestServer.run(configuration: TestServer.configuration(testMode: true), clock: clock) { api in
            let session = try await api.signUp("yuri@example.com")
            #expect(try await api.send(.post, "/v1/_test/expire-access-tokens").status == .noContent)
            let old = try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken)
            #expect(old.status == .unauthorized)
            #expect(old.errorCode == "token_expired")
            let fresh = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            #expect(try await api.send(.get, "/v1/members/me", token: fresh.accessToken).status == .ok)
        }
    }

    @Test("refresh faults: fail answers 500 without spending the token; hang waits; reset clears faults")
    func failAndHang() async throws {
        try await TestServer.run(configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("zoe@example.com")
            #expect(try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"fail","count":2}"#).status == .noContent)
            for _ in 0..<2 {
                let failed = try await api.refresh(session.tokens.refreshToken)
                #expect(failed.status == .internalServerError)
                #expect(failed.errorCode == "internal")
            }
            let tokens = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens

            _ = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"hang","count":1,"seconds":0.3}"#)
            let start = ContinuousClock.now
            #expect(try await api.refresh(tokens.refreshToken).status == .ok)
            #expect(ContinuousClock.now - start >= .milliseconds(300))

            _ = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"fail","count":5}"#)
            _ = try await api.send(.post, "/v1/_test/reset")
            let session2 = try await api.signIn("zoe@example.com", password: "password-1")
            #expect(try await api.refresh(session2.tokens.refreshToken).status == .ok)

            let bad = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"explode","count":1}"#)
            #expect(bad.status == .badRequest)
        }
    }

    @Test("a refresh whose response a timed-out client never read can be retried within the grace period; with grace 0 it is reuse",
          arguments: [30, 0])
    func hangThenRetry(grace: Int) async throws {
        let configuration = TestServer.configuration(testMode: true, refreshReuseGrace: grace)
        try await TestServer.run(.live, configuration: configuration) { api in
            let session = try await api.signUp("ada@example.com")
            _ = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"hang","count":1,"seconds":0.3}"#)
            // A client with a 0.1 s timeout gives up (and closes its connection); the server rotates anyway.
            let port = try #require(api.client.port)
            let refreshToken = session.tokens.refreshToken
            await #expect(throws: (any Error).self) {
                try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .milliseconds(100))) { client in
                    _ = try await client.post(
                        "/v1/auth/refresh", headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: #"{"refreshToken":"\#(refreshToken)"}"#)
                    )
                }
            }
            try await Task.sleep(for: .seconds(1.5))  // the hang is over and the token rotated

            // The client kept its credentials and retries with the same refresh token.
            let retry = try await api.refresh(refreshToken)
            if grace > 0 {
                #expect(retry.status == .ok)
                let tokens = try retry.decode(RefreshResultDTO.self).tokens
                #expect(try await api.send(.get, "/v1/members/me", token: tokens.accessToken).status == .ok)
            } else {
                #expect(retry.status == .unauthorized)
                #expect(retry.errorCode == "refresh_token_reused")
                #expect(try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken).status == .unauthorized)
            }
        }
    }

    @Test("drop closes the connection without a response and leaves the refresh token usable")
    func drop() async throws {
        try await TestServer.run(.live, configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("abe@example.com")
            _ = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"drop","count":1}"#)
            // A connection of its own for the dropped call, so the shared test client's survives.
            let port = try #require(api.client.port)
            let refreshToken = session.tokens.refreshToken
            await #expect(throws: (any Error).self) {
                try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    _ = try await client.post(
                        "/v1/auth/refresh", headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: #"{"refreshToken":"\#(refreshToken)"}"#)
                    )
                }
            }
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.refreshCalls == 1)
            #expect(try await api.refresh(session.tokens.refreshToken).status == .ok)
        }
    }

    @Test("unavailable answers 503 with Retry-After without spending the token; a whole number of seconds is required")
    func unavailable() async throws {
        try await TestServer.run(configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("ben@example.com")
            #expect(try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"unavailable","count":2,"seconds":1}"#).status == .noContent)
            for _ in 0..<2 {
                let failed = try await api.refresh(session.tokens.refreshToken)
                #expect(failed.status == .serviceUnavailable)
                #expect(failed.headers[.retryAfter] == "1")
            }
            #expect(try await api.refresh(session.tokens.refreshToken).status == .ok)
            let fractional = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"unavailable","count":1,"seconds":0.5}"#)
            #expect(fractional.status == .badRequest)
        }
    }

    @Test("drop-response rotates the token, then closes the connection without a response: a retry within the grace period gets new tokens, with grace 0 it is reuse",
          arguments: [30, 0])
    func dropResponse(grace: Int) async throws {
        let configuration = TestServer.configuration(testMode: true, refreshReuseGrace: grace)
        try await TestServer.run(.live, configuration: configuration) { api in
            let session = try await api.signUp("cal@example.com")
            _ = try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"drop-response","count":1}"#)
            let port = try #require(api.client.port)
            let refreshToken = session.tokens.refreshToken
            await #expect(throws: (any Error).self) {
                try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    _ = try await client.post(
                        "/v1/auth/refresh", headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: #"{"refreshToken":"\#(refreshToken)"}"#)
                    )
                }
            }
            // The token was spent by the dropped call: presenting it again is a retry (grace) or reuse.
            let retry = try await api.refresh(refreshToken)
            if grace > 0 {
                #expect(retry.status == .ok)
            } else {
                #expect(retry.status == .unauthorized)
                #expect(retry.errorCode == "refresh_token_reused")
            }
        }
    }
}
