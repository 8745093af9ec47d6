import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteNIO
import Testing

/// Schema migration 4 (`sessions.jkt`) on a database from before DPoP.
@Suite("DPoP schema migration")
struct DPoPMigrationTests {
    @Test("a schema-3 database gets sessions.jkt empty: its families stay bearer under --dpop allowed, even refreshed with a proof, and new sign-ins with a proof are bound")
    func migratesSchemaThree() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        var configuration = TestServer.configuration(database: .file(path: path))

        let old = try await TestServer.run(configuration: configuration) { api in
            try await api.signUp("pam@example.com").tokens
        }
        try await SQLiteConnection.withFile(path) { connection in
            _ = try await connection.query("ALTER TABLE sessions DROP COLUMN jkt", [])
            _ = try await connection.query("PRAGMA user_version = 3", [])
        }

        configuration.dpop.mode = .allowed
        try await TestServer.run(configuration: configuration) { api in
            let key = DPoPTestKey()
            let refreshed = try await api.refresh(old.refreshToken, key: key)
            #expect(refreshed.status == .ok)
            let tokens = try refreshed.decode(RefreshResultDTO.self).tokens
            #expect(tokens.tokenType == "Bearer")
            #expect(try accessTokenClaims(tokens.accessToken).cnf == nil)
            #expect(try await api.send(.get, "/v1/members/me", token: tokens.accessToken).status == .ok)
            _ = try await api.boundSignUp("pam2@example.com", key: key)
        }
        let (version, bound) = try await SQLiteConnection.withFile(path) { check in
            let version = try await check.query("PRAGMA user_version", []).first?.column("user_version")?.integer
            let bound = try await check.query("SELECT COUNT(jkt) AS bound FROM sessions", []).first?.column("bound")?.integer
            return (version, bound)
        }
        #expect(version == 4)
        #expect(bound == 1)
    }
}
