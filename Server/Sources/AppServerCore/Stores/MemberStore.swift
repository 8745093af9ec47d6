import Foundation
import SQLiteNIO

/// A member row.
struct MemberRecord: Sendable {
    var id: UUID
    var email: String?
    var passwordHash: String?
    var nickname: String
    var role: Role
    var createdAt: Date

    var dto: MemberDTO { MemberDTO(id: id, nickname: nickname, email: email, role: role, createdAt: createdAt) }
}

/// SQL for the `members` table.
enum MemberStore {
    private static let columns = "id, email, password_hash, nickname, role, created_at"

    static func insert(_ member: MemberRecord, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "INSERT INTO members (\(columns)) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(member.id.dbString), member.email.map { .text($0) } ?? .null,
                member.passwordHash.map { .text($0) } ?? .null, .text(member.nickname),
                .text(member.role.rawValue), .int(Int(member.createdAt.timeIntervalSince1970)),
            ]
        )
    }

    static func find(id: UUID, in transaction: Transaction) async throws(DatabaseError) -> MemberRecord? {
        try await transaction.query("SELECT \(columns) FROM members WHERE id = ?", [.text(id.dbString)])
            .first.map(record)
    }

    static func find(email: String, in transaction: Transaction) async throws(DatabaseError) -> MemberRecord? {
        try await transaction.query("SELECT \(columns) FROM members WHERE email = ?", [.text(email)])
            .first.map(record)
    }

    /// Members whose stored email may not be in normalized form (``Validation/normalizedEmail(_:)``):
    /// those with a byte outside printable ASCII or an upper-case ASCII letter. Lower-case ASCII
    /// emails, the usual case, are normalized already and are not read.
    static func emailsToNormalize(in transaction: Transaction) async throws(DatabaseError) -> [(id: UUID, email: String)] {
        let rows = try await transaction.query(
            "SELECT id, email FROM members WHERE email IS NOT NULL AND (email GLOB '*[^ -~]*' OR email <> lower(email))"
        )
        var members: [(id: UUID, email: String)] = []
        for row in rows {
            guard let id = UUID(uuidString: try row.string("id")) else {
                throw DatabaseError(operation: "read member", underlying: ColumnError(column: "id"))
            }
            members.append((id, try row.string("email")))
        }
        return members
    }

    static func updateEmail(id: UUID, email: String, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("UPDATE members SET email = ? WHERE id = ?", [.text(email), .text(id.dbString)])
    }

    static func updateNickname(id: UUID, nickname: String, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("UPDATE members SET nickname = ? WHERE id = ?", [.text(nickname), .text(id.dbString)])
    }

    static func makeAdmin(id: UUID, passwordHash: String, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "UPDATE members SET role = 'admin', password_hash = ? WHERE id = ?", [.text(passwordHash), .text(id.dbString)]
        )
    }

    /// Deletes the member; foreign keys cascade to sessions, refresh tokens, answers, posts
    /// (with their comments and likes), comments, likes and reports.
    static func delete(id: UUID, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("DELETE FROM members WHERE id = ?", [.text(id.dbString)])
    }

    private static func record(_ row: SQLiteRow) throws(DatabaseError) -> MemberRecord {
        let idString = try row.string("id")
        guard let id = UUID(uuidString: idString), let role = Role(rawValue: try row.string("role")) else {
            throw DatabaseError(operation: "read member", underlying: ColumnError(column: "id/role"))
        }
        return MemberRecord(
            id: id, email: row.optionalString("email"), passwordHash: row.optionalString("password_hash"),
            nickname: try row.string("nickname"), role: role, createdAt: try row.date("created_at")
        )
    }
}

extension UUID {
    /// The form stored in the database and put in tokens: lower-case.
    var dbString: String { uuidString.lowercased() }
}

extension SQLiteRow {
    /// A seconds-since-1970 column.
    func date(_ name: String) throws(DatabaseError) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try int(name)))
    }

    /// The author columns `<prefix>_id` and `<prefix>_nickname`.
    func author(_ prefix: String) throws(DatabaseError) -> AuthorDTO {
        let idString = try string("\(prefix)_id")
        guard let id = UUID(uuidString: idString) else {
            throw DatabaseError(operation: "read \(prefix)_id", underlying: ColumnError(column: "\(prefix)_id"))
        }
        return AuthorDTO(id: id, nickname: try string("\(prefix)_nickname"))
    }
}
