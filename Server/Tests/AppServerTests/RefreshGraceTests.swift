import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteNIO
import Testing

/// The reuse grace period: a used refresh token presented again at most `refreshReuseGrace` after
/// its first use, while none of its children was used, is the retry of a lost response (or a
/// late request of a holder that is gone) and gets a sibling; ``RefreshSiblingTests`` go
/// through the orderings.
@Suite("Refresh-token reuse grace period")
struct RefreshGraceTests {
    /// Expects 401 `invalid_token` for each access token (its family is revoked).
    static func expectRevoked(_ accessTokens: [String], api: API, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for token in accessTokens {
            let me = try await api.send(.get, "/v1/members/me", token: token)
            #expect(me.status == .unauthorized, sourceLocation: sourceLocation)
            #expect(me.errorCode == "invalid_token", sourceLocation: sourceLocation)
        }
    }

    @Test("a retry within the grace period while the child is unused gets a fresh pair, and the family lives", arguments: SessionBinding.allCases)
    func retryWithinGrace(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            let session = try await api.signUp("gail@example.com")
            // The server rotates, but the client never sees this response.
            let lost = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            clock.advance(by: 30)  // the last second of the grace period

            let response = try await api.refresh(session.tokens.refreshToken)
            #expect(response.status == .ok)
            let retry = try response.decode(RefreshResultDTO.self).tokens
            #expect(retry.refreshToken != lost.refreshToken)
            #expect(retry.refreshToken != session.tokens.refreshToken)
            #expect(try await api.send(.get, "/v1/members/me", token: retry.accessToken).status == .ok)
            // The family is not revoked: its older access tokens work until they expire, the one
            // that came with the lost child included.
            #expect(try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken).status == .ok)
            #expect(try await api.send(.get, "/v1/members/me", token: lost.accessToken).status == .ok)
            // And the new refresh token rotates as usual.
            let next = try await api.refresh(retry.refreshToken)
            #expect(next.status == .ok)
            let newest = try next.decode(RefreshResultDTO.self).tokens
            #expect(try await api.send(.get, "/v1/members/me", token: newest.accessToken).status == .ok)
        }
    }

    @Test("the child a retry's sibling withdrew counts as used: presenting it is reuse and revokes the family", arguments: SessionBinding.allCases)
    func withdrawnChildIsReuse(_ binding: SessionBinding) async throws {
        try await binding.run { api in
            let session = try await api.signUp("hank@example.com")
            let lost = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            let retry = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            let newest = try await api.refresh(retry.refreshToken).decode(RefreshResultDTO.self).tokens

            let withdrawn = try await api.refresh(lost.refreshToken)
            #expect(withdrawn.status == .unauthorized)
            #expect(withdrawn.errorCode == "refresh_token_reused")

            let next = try await api.refresh(newest.refreshToken)
            #expect(next.status == .unauthorized)
            #expect(next.errorCode == "invalid_refresh_token")
            try await Self.expectRevoked([newest.accessToken, retry.accessToken, lost.accessToken, session.tokens.accessToken], api: api)
        }
    }

    @Test("retries may repeat, but the window counts from the first use; once the retried pair is used, it is reuse", arguments: SessionBinding.allCases)
    func windowCountsFromFirstUse(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            // Window from the first use: a third presentation 31 s after it is reuse.
            let session = try await api.signUp("iris@example.com")
            _ = try await api.refresh(session.tokens.refreshToken)
            clock.advance(by: 10)
            #expect(try await api.refresh(session.tokens.refreshToken).status == .ok)
            clock.advance(by: 20)
            let third = try await api.refresh(session.tokens.refreshToken)
            #expect(third.status == .ok)
            let latest = try third.decode(RefreshResultDTO.self).tokens
            clock.advance(by: 1)
            let late = try await api.refresh(session.tokens.refreshToken)
            #expect(late.status == .unauthorized)
            #expect(late.errorCode == "refresh_token_reused")
            #expect(try await api.refresh(latest.refreshToken).errorCode == "invalid_refresh_token")
            try await Self.expectRevoked([latest.accessToken], api: api)

            // A retried pair that was then used: presenting the first token again is reuse, although
            // within the window, and the newest tokens die.
            let other = try await api.signUp("iris2@example.com")
            _ = try await api.refresh(other.tokens.refreshToken)
            let retried = try await api.refresh(other.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            let newest = try await api.refresh(retried.refreshToken).decode(RefreshResultDTO.self).tokens
            let reuse = try await api.refresh(other.tokens.refreshToken)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_reused")
            #expect(try await api.refresh(newest.refreshToken).errorCode == "invalid_refresh_token")
            try await Self.expectRevoked([newest.accessToken, retried.accessToken], api: api)
        }
    }

    @Test("presenting a used token after the grace period is reuse, even while its child is unused", arguments: SessionBinding.allCases)
    func reuseOutsideWindow(_ binding: SessionBinding) async throws {
        let clock = TestClock()
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 30), clock: clock) { api in
            let session = try await api.signUp("jill@example.com")
            let rotated = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            clock.advance(by: 31)
            let reuse = try await api.refresh(session.tokens.refreshToken)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_reused")
            let next = try await api.refresh(rotated.refreshToken)
            #expect(next.status == .unauthorized)
            #expect(next.errorCode == "invalid_refresh_token")
            try await Self.expectRevoked([rotated.accessToken, session.tokens.accessToken], api: api)
        }
    }

    @Test("grace 0 keeps the strict rule: a second use is reuse at once, even while the child is unused", arguments: SessionBinding.allCases)
    func graceZeroIsStrict(_ binding: SessionBinding) async throws {
        try await binding.run(configuration: TestServer.configuration(refreshReuseGrace: 0)) { api in
            let session = try await api.signUp("kurt@example.com")
            let unrelated = try await api.signIn("kurt@example.com", password: "password-1")
            let rotated = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens

            let reuse = try await api.refresh(session.tokens.refreshToken)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_reused")
            let next = try await api.refresh(rotated.refreshToken)
            #expect(next.status == .unauthorized)
            #expect(next.errorCode == "invalid_refresh_token")
            try await Self.expectRevoked([rotated.accessToken, session.tokens.accessToken], api: api)
            #expect(try await api.send(.get, "/v1/members/me", token: unrelated.tokens.accessToken).status == .ok)
            #expect(try await api.refresh(unrelated.tokens.refreshToken).status == .ok)
        }
    }

    @Test("a negative grace period is refused")
    func negativeGrace() {
        #expect(throws: ConfigurationError.invalid("refresh reuse grace must be 0...3600 whole seconds, got -1.0 seconds")) {
            try TestServer.configuration(refreshReuseGrace: -1).validate()
        }
    }

    @Test("a database from before the grace period (schema 1) gets the new columns; its used tokens stay strict")
    func migratesSchemaOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        let configuration = TestServer.configuration(database: .file(path: path))

        // A family with a used token (and its unused child), and a family not refreshed yet.
        let (used, unused) = try await TestServer.run(configuration: configuration) { api in
            let first = try await api.signUp("lena@example.com")
            _ = try await api.refresh(first.tokens.refreshToken)
            let second = try await api.signUp("lena2@example.com")
            return (first.tokens, second.tokens)
        }

        // Turn the file back into schema 1: no `parent_hash`, no `replaced_by`, no `withdrawn_at`.
        try await SQLiteConnection.withFile(path) { connection in
            _ = try await connection.query("DROP INDEX refresh_tokens_parent", [])
            _ = try await connection.query("ALTER TABLE refresh_tokens DROP COLUMN parent_hash", [])
            _ = try await connection.query("ALTER TABLE refresh_tokens DROP COLUMN replaced_by", [])
            _ = try await connection.query("ALTER TABLE refresh_tokens DROP COLUMN withdrawn_at", [])
            _ = try await connection.query("ALTER TABLE sessions DROP COLUMN jkt", [])  // schema 4
            _ = try await connection.query("PRAGMA user_version = 1", [])
        }

        try await TestServer.run(configuration: configuration) { api in
            // No child is known for a token used before the migration: presenting it again is reuse.
            let reuse = try await api.refresh(used.refreshToken)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_reused")
            // Tokens used after the migration get the grace period.
            let lost = try await api.refresh(unused.refreshToken)
            #expect(lost.status == .ok)
            #expect(try await api.refresh(unused.refreshToken).status == .ok)
        }

        let version = try await SQLiteConnection.withFile(path) { check in
            try await check.query("PRAGMA user_version", []).first?.column("user_version")?.integer
        }
        #expect(version == 4)
    }
}
