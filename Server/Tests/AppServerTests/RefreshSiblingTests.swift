import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SQLiteNIO
import Testing

/// The sibling rule of the reuse grace period, in every ordering of two presentations of one
/// refresh token: a used token presented again within the grace period, before any of its
/// children was used, gets another child (a sibling) and the children already issued stay
/// valid; the first sibling used wins and the others are withdrawn; a token presented after a
/// child of it was used (its family moved on) is reuse.
///
/// "Holder B" shares a store with "holder A", which was killed while its refresh request was
/// stalled at the server; that stalled request reaches the token logic at some point, with the
/// refresh token both read from the store. Nobody receives its answer.
@Suite("Refresh-token siblings: every ordering of two presentations of one token")
struct RefreshSiblingTests {
    /// Refreshes and returns the new tokens, expecting 200.
    static func rotate(_ refreshToken: String, api: API, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TokensDTO {
        let response = try await api.refresh(refreshToken)
        #expect(response.status == .ok, "\(response.errorCode ?? "")", sourceLocation: sourceLocation)
        return try response.decode(RefreshResultDTO.self).tokens
    }

    /// Expects 401 `refresh_token_reused`.
    static func expectReuse(_ refreshToken: String, api: API, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await api.refresh(refreshToken)
        #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
        #expect(response.errorCode == "refresh_token_reused", sourceLocation: sourceLocation)
    }

    /// Expects the family to be revoked: each refresh token is refused and each access token too.
    static func expectFamilyRevoked(refreshTokens: [String], accessTokens: [String], api: API,
                                    sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for token in refreshTokens {
            let response = try await api.refresh(token)
            #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
            #expect(["invalid_refresh_token", "refresh_token_reused"].contains(response.errorCode ?? ""), sourceLocation: sourceLocation)
        }
        try await RefreshGraceTests.expectRevoked(accessTokens, api: api, sourceLocation: sourceLocation)
    }

    static func isSignedIn(_ accessToken: String, api: API) async throws -> Bool {
        try await api.send(.get, "/v1/members/me", token: accessToken).status == .ok
    }

    @Test("a dead holder's stalled request reaching the token logic after holder B's refresh gets a sibling: B's child still works, even after the grace period", arguments: SessionBinding.allCases)
    func stalledRequestAfterTheOtherHoldersRefresh(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            let session = try await api.signUp("ann@example.com")
            let b = try await Self.rotate(session.tokens.refreshToken, api: api)
            clock.advance(by: 5)
            // A's stalled request, with the same token: a sibling of B's child, which nobody receives.
            let unreceived = try await Self.rotate(session.tokens.refreshToken, api: api)
            #expect(unreceived.refreshToken != b.refreshToken)

            // B refreshes when its access token is due, long after the grace period: its child wins.
            clock.advance(by: 600)
            let next = try await Self.rotate(b.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            let after = try await Self.rotate(next.refreshToken, api: api)
            #expect(try await Self.isSignedIn(after.accessToken, api: api))

            // The sibling nobody received died when B's child was used: presenting it is reuse.
            try await Self.expectReuse(unreceived.refreshToken, api: api)
            try await Self.expectFamilyRevoked(refreshTokens: [after.refreshToken], accessTokens: [after.accessToken], api: api)
        }
    }

    @Test("a dead holder's stalled request reaching the token logic before holder B's refresh: B's presentation gets a sibling and B keeps the session", arguments: SessionBinding.allCases)
    func stalledRequestBeforeTheOtherHoldersRefresh(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            let session = try await api.signUp("ben@example.com")
            let unreceived = try await Self.rotate(session.tokens.refreshToken, api: api)
            clock.advance(by: 5)
            let b = try await Self.rotate(session.tokens.refreshToken, api: api)

            clock.advance(by: 600)
            let next = try await Self.rotate(b.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            #expect(try await Self.isSignedIn(try await Self.rotate(next.refreshToken, api: api).accessToken, api: api))
            try await Self.expectReuse(unreceived.refreshToken, api: api)
        }
    }

    @Test("a dead holder's stalled request reaching the token logic after B used its child is reuse: the family moved on, the server cannot tell it from a replayed stolen token", arguments: SessionBinding.allCases)
    func stalledRequestAfterTheFamilyMovedOn(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            let session = try await api.signUp("cid@example.com")
            let b = try await Self.rotate(session.tokens.refreshToken, api: api)
            clock.advance(by: 5)
            let next = try await Self.rotate(b.refreshToken, api: api)
            clock.advance(by: 1)  // well within the grace period of the first token's use

            try await Self.expectReuse(session.tokens.refreshToken, api: api)
            try await Self.expectFamilyRevoked(
                refreshTokens: [next.refreshToken], accessTokens: [next.accessToken, b.accessToken], api: api)
        }
    }

    @Test("a client that lost a refresh's response and retried keeps the session with the sibling it received; the lost child dies once the sibling is used", arguments: SessionBinding.allCases)
    func lostResponseRetried(_ binding: SessionBinding) async throws {
        try await binding.run { api in
            let session = try await api.signUp("dee@example.com")
            let lost = try await Self.rotate(session.tokens.refreshToken, api: api)
            let retried = try await Self.rotate(session.tokens.refreshToken, api: api)
            // Both children are valid until one is used.
            #expect(try await Self.isSignedIn(lost.accessToken, api: api))
            #expect(try await Self.isSignedIn(retried.accessToken, api: api))

            let next = try await Self.rotate(retried.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            try await Self.expectReuse(lost.refreshToken, api: api)
            try await Self.expectFamilyRevoked(refreshTokens: [next.refreshToken], accessTokens: [next.accessToken], api: api)
        }
    }

    @Test("two holders without a shared store present one token within the grace period: the first to use its child wins, the other's refresh is reuse and ends the family for both",
          arguments: SessionBinding.allCases, [true, false])
    func twoLiveHolders(_ binding: SessionBinding, firstPresenterUsesFirst: Bool) async throws {
        try await binding.run { api in
            let session = try await api.signUp("eve@example.com")
            let x = try await Self.rotate(session.tokens.refreshToken, api: api)
            let y = try await Self.rotate(session.tokens.refreshToken, api: api)
            let (winner, loser) = firstPresenterUsesFirst ? (x, y) : (y, x)

            let next = try await Self.rotate(winner.refreshToken, api: api)
            try await Self.expectReuse(loser.refreshToken, api: api)
            try await Self.expectFamilyRevoked(
                refreshTokens: [next.refreshToken], accessTokens: [next.accessToken, winner.accessToken, loser.accessToken], api: api)
        }
    }

    @Test("an attacker presenting a stolen token within the grace period gets a sibling whose access token lives until it expires or the family is revoked; the attacker's refresh after the rightful holder's is reuse", arguments: SessionBinding.allCases)
    func attackerWithinGrace(_ binding: SessionBinding) async throws {
        try await binding.run { api in
            let session = try await api.signUp("fay@example.com")
            let rightful = try await Self.rotate(session.tokens.refreshToken, api: api)
            let stolen = try await Self.rotate(session.tokens.refreshToken, api: api)
            #expect(try await Self.isSignedIn(stolen.accessToken, api: api))

            let next = try await Self.rotate(rightful.refreshToken, api: api)
            // The losing sibling's access token is tied to the family only: it works until it expires.
            #expect(try await Self.isSignedIn(stolen.accessToken, api: api))
            try await Self.expectReuse(stolen.refreshToken, api: api)
            try await Self.expectFamilyRevoked(
                refreshTokens: [next.refreshToken], accessTokens: [stolen.accessToken, next.accessToken], api: api)
        }
    }

    @Test("three presentations within the grace period give three siblings; the one used first withdraws both others",
          arguments: SessionBinding.allCases, [0, 2])
    func threeSiblings(_ binding: SessionBinding, presentedLoser: Int) async throws {
        try await binding.run { api in
            let session = try await api.signUp("gus\(presentedLoser)@example.com")
            var siblings: [TokensDTO] = []
            for _ in 0..<3 {
                siblings.append(try await Self.rotate(session.tokens.refreshToken, api: api))
            }
            #expect(Set(siblings.map(\.refreshToken)).count == 3)
            let next = try await Self.rotate(siblings[1].refreshToken, api: api)
            try await Self.expectReuse(siblings[presentedLoser].refreshToken, api: api)
            try await Self.expectFamilyRevoked(refreshTokens: [next.refreshToken], accessTokens: [next.accessToken], api: api)
        }
    }

    @Test("a presentation after sign-out is refused, whether the token was used or not, and issues nothing", arguments: SessionBinding.allCases)
    func afterSignOut(_ binding: SessionBinding) async throws {
        try await binding.run { api in
            let session = try await api.signUp("hal@example.com")
            let first = try await Self.rotate(session.tokens.refreshToken, api: api)
            let sibling = try await Self.rotate(session.tokens.refreshToken, api: api)
            #expect(try await api.send(.post, "/v1/auth/sign-out", token: sibling.accessToken,
                                       json: #"{"refreshToken":"\#(sibling.refreshToken)"}"#).status == .noContent)
            try await Self.expectReuse(session.tokens.refreshToken, api: api)
            for token in [first.refreshToken, sibling.refreshToken] {
                let response = try await api.refresh(token)
                #expect(response.status == .unauthorized)
                #expect(response.errorCode == "invalid_refresh_token")
            }
        }
    }

    @Test("a refresh held at the server by a hang, whose client is still connected, processed after another client's refresh of the same token: it gets a sibling, and that client's child keeps working")
    func heldRefreshProcessedLate() async throws {
        try await TestServer.run(.live, configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("ida@example.com")
            let refreshToken = session.tokens.refreshToken
            #expect(try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"hang","count":1,"seconds":5}"#).status == .noContent)
            let port = try #require(api.client.port)
            // Holder A: its request reaches the server and is held; A stays connected (a slow network, not a dead process).
            let holderA = try RawSocket(port: port)
            let body = #"{"refreshToken":"\#(refreshToken)"}"#
            await holderA.send("POST /v1/auth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            let reached = ContinuousClock.now + .seconds(10)
            while try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self).refreshCalls < 1, ContinuousClock.now < reached {
                try await Task.sleep(for: .milliseconds(20))
            }
            // Holder B refreshes with the same token while A's request is still held.
            let b = try await Self.rotate(refreshToken, api: api)
            #expect(try await Self.completedRefreshes(api) == 1, "the held refresh ended before holder B's: the order is not the one tested")

            // A's request is let through, reaches the token logic, and gets a sibling.
            let answer = await holderA.readUntilClosed(timeout: 15)
            #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text.prefix(80))")
            #expect(try await Self.completedRefreshes(api) == 2)

            let next = try await Self.rotate(b.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.errorCodes["refresh_token_reused"] == nil)
        }
    }

    @Test("a refresh held at the server whose client is killed (its connection closed) never reaches the token logic, even when let through after the other holder used its child: no reuse, that holder's session lives")
    func heldRefreshOfAGoneClientIsNotProcessed() async throws {
        try await TestServer.run(.live, configuration: TestServer.configuration(testMode: true)) { api in
            let session = try await api.signUp("ivy@example.com")
            let refreshToken = session.tokens.refreshToken
            #expect(try await api.send(.post, "/v1/_test/refresh-faults", json: #"{"mode":"hang","count":1,"seconds":5}"#).status == .noContent)
            let port = try #require(api.client.port)
            // Holder A: its request reaches the server and is held; then A is killed (its kernel closes the connection).
            let holderA = try RawSocket(port: port)
            let body = #"{"refreshToken":"\#(refreshToken)"}"#
            await holderA.send("POST /v1/auth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let reached = ContinuousClock.now + .seconds(10)
            while try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self).refreshCalls < 1, ContinuousClock.now < reached {
                try await Task.sleep(for: .milliseconds(20))
            }
            holderA.shutDown()
            // Holder B refreshes with the same token and then uses its child, all while A's request is held.
            let b = try await Self.rotate(refreshToken, api: api)
            let b2 = try await Self.rotate(b.refreshToken, api: api)
            #expect(try await Self.completedRefreshes(api) == 2, "the held refresh ended before holder B's two: the order is not the one tested")

            // A's request is let through after B used its child; it must not reach the token logic.
            let deadline = ContinuousClock.now + .seconds(15)
            while try await Self.completedRefreshes(api) < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await Self.completedRefreshes(api) == 3, "the held refresh never ended")

            let next = try await Self.rotate(b2.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            let counters = try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self)
            #expect(counters.errorCodes["refresh_token_reused"] == nil)
        }
    }

    @Test("a database from schema 2 gets the parent links from `replaced_by`: a token used before the upgrade is still retried within its window, and a child withdrawn before stays withdrawn")
    func migratesSchemaTwo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        let configuration = TestServer.configuration(database: .file(path: path))
        let clock = TestClock()

        // As the old rule left it: the first child withdrawn by a retry, whose child is the parent's `replaced_by`.
        let (session, withdrawn, current) = try await TestServer.run(configuration: configuration, clock: clock) { api in
            let session = try await api.signUp("joe@example.com")
            let withdrawn = try await Self.rotate(session.tokens.refreshToken, api: api)
            let current = try await Self.rotate(session.tokens.refreshToken, api: api)
            return (session.tokens, withdrawn, current)
        }
        try await SQLiteConnection.withFile(path) { connection in
            _ = try await connection.query(
                "UPDATE refresh_tokens SET withdrawn_at = 0 WHERE token_hash = ?", [.text(RandomToken.hash(withdrawn.refreshToken))])
            _ = try await connection.query("DROP INDEX refresh_tokens_parent", [])
            _ = try await connection.query("ALTER TABLE refresh_tokens DROP COLUMN parent_hash", [])
            _ = try await connection.query("ALTER TABLE sessions DROP COLUMN jkt", [])  // schema 4
            _ = try await connection.query("PRAGMA user_version = 2", [])
        }

        clock.advance(by: 10)
        try await TestServer.run(configuration: configuration, clock: clock) { api in
            // Within the window, with its only known child unused: a sibling.
            let sibling = try await Self.rotate(session.refreshToken, api: api)
            // The child from before the upgrade is used first: it wins, and the new sibling dies.
            let next = try await Self.rotate(current.refreshToken, api: api)
            #expect(try await Self.isSignedIn(next.accessToken, api: api))
            try await Self.expectReuse(sibling.refreshToken, api: api)
        }
        let (version, withdrawnAt) = try await SQLiteConnection.withFile(path) { check in
            let version = try await check.query("PRAGMA user_version", []).first?.column("user_version")?.integer
            let row = try await check.query(
                "SELECT withdrawn_at FROM refresh_tokens WHERE token_hash = ?", [.text(RandomToken.hash(withdrawn.refreshToken))]).first
            return (version, row?.column("withdrawn_at")?.integer)
        }
        #expect(version == 4)
        #expect(withdrawnAt == 0)
    }

    /// Refresh calls the server has answered (or, for a client that is gone, tried to answer).
    static func completedRefreshes(_ api: API) async throws -> Int {
        try await api.send(.get, "/v1/_test/counters").decode(TestModeState.Counters.self).routes["POST /v1/auth/refresh"] ?? 0
    }
}

extension SQLiteConnection {
    /// Opens the database file, runs `body` and closes the connection, also when `body` throws
    /// (an open connection that goes away would stop the test process).
    static func withFile<T: Sendable>(_ path: String, _ body: (SQLiteConnection) async throws -> T) async throws -> T {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
