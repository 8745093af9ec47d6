import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteNIO
import Testing

/// Issue 26 (13): the NFC and NFD spellings of one address were two accounts.
@Suite("Email normalization (lower case, Unicode NFC)")
struct EmailNormalizationTests {
    /// `josé@example.com` with a precomposed é (U+00E9) and with e + U+0301, and in capitals.
    static let composed = "jos\u{E9}@example.com"
    static let decomposed = "jose\u{301}@example.com"
    static let capitals = "JOSE\u{301}@Example.COM"

    static func bytes(_ text: String?) -> [UInt8] { Array((text ?? "").utf8) }

    @Test("the NFC and NFD spellings of an email are one account: the second sign-up is 409, and every spelling signs in to it")
    func oneAccount() async throws {
        #expect(Self.bytes(Self.composed) != Self.bytes(Self.decomposed))
        try await TestServer.run { api in
            let first = try await api.signUp(Self.decomposed)
            #expect(Self.bytes(first.member.email) == Self.bytes(Self.composed), "stored as typed, not in NFC")
            let second = try await api.send(
                .post, "/v1/auth/sign-up", json: #"{"email":"\#(Self.composed)","password":"password-2","nickname":"twin"}"#
            )
            #expect(second.status == .conflict)
            #expect(second.errorCode == "email_taken")
            for spelling in [Self.composed, Self.decomposed, Self.capitals] {
                #expect(try await api.signIn(spelling, password: "password-1").member.id == first.member.id, "\(Self.bytes(spelling))")
            }
        }
    }

    static func withDatabaseFile<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("app.sqlite").path)
    }

    static func setEmail(_ email: String, of id: UUID, in path: String) async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query("UPDATE members SET email = ? WHERE id = ?", [.text(email), .text(id.uuidString.lowercased())])
        try await connection.close()
    }

    static func emails(in path: String) async throws -> [String: String] {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        let rows = try await connection.query("SELECT id, email FROM members WHERE email IS NOT NULL", [])
        try await connection.close()
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            guard let id = row.column("id")?.string, let email = row.column("email")?.string else { return nil }
            return (id, email)
        })
    }

    @Test("emails stored before normalization are normalized at start; of two spellings of one address, the one already normalized keeps it and the other is left as it was")
    func existingRows() async throws {
        try await Self.withDatabaseFile { path in
            let configuration = TestServer.configuration(database: .file(path: path))
            // Three accounts; then their emails are written as a server before this change could have stored them.
            let (renee, chloe, twin) = try await TestServer.run(configuration: configuration) { api in
                (
                    try await api.signUp("renee@example.com").member.id,
                    try await api.signUp("chlo\u{E9}@example.com").member.id,
                    try await api.signUp("twin@example.com", password: "password-2").member.id
                )
            }
            try await Self.setEmail("rene\u{301}e@example.com", of: renee, in: path)
            try await Self.setEmail("chloe\u{301}@example.com", of: twin, in: path)

            try await TestServer.run(configuration: configuration) { api throws in
                #expect(try await api.signIn("ren\u{E9}e@example.com", password: "password-1").member.id == renee)
                #expect(try await api.signIn("rene\u{301}e@example.com", password: "password-1").member.id == renee)
                // Both spellings lead to the account that had the normalized one.
                #expect(try await api.signIn("chloe\u{301}@example.com", password: "password-1").member.id == chloe)
            }
            let stored = try await Self.emails(in: path)
            #expect(Self.bytes(stored[renee.uuidString.lowercased()]) == Self.bytes("ren\u{E9}e@example.com"))
            #expect(Self.bytes(stored[chloe.uuidString.lowercased()]) == Self.bytes("chlo\u{E9}@example.com"))
            // Nothing was deleted or merged: the colliding account keeps its spelling.
            #expect(Self.bytes(stored[twin.uuidString.lowercased()]) == Self.bytes("chloe\u{301}@example.com"))
        }
    }

    @Test("normalizedEmail lower-cases and composes")
    func normalizedForm() {
        #expect(Self.bytes(Validation.normalizedEmail(Self.capitals)) == Self.bytes(Self.composed))
        #expect(Validation.normalizedEmail("Ann@Example.COM") == "ann@example.com")
    }
}
