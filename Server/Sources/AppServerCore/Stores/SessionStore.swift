import Foundation
import SQLiteNIO

/// What the database knows about a presented refresh token.
struct RefreshTokenRecord: Sendable {
    var sessionID: String
    var memberID: UUID
    var expiresAt: Date
    /// When the token was first used (whole seconds); `nil` while unused.
    var usedAt: Date?
    /// The hash of the token whose presentation issued this one (its parent); `nil` for the
    /// first token of a family, and for a token issued before schema migration 3 that its
    /// parent's `replaced_by` did not name.
    var parentHash: String?
    /// Whether the token was taken back: a sibling of it (a child of the same parent) was used
    /// first, or, before schema migration 3, its parent was presented again within the grace period.
    var isWithdrawn: Bool
    var isSessionRevoked: Bool
    /// The thumbprint of the DPoP key the family is bound to (`sessions.jkt`); `nil` for a
    /// bearer family.
    var boundKeyThumbprint: String?

    var isUsed: Bool { usedAt != nil }
}

/// SQL for session families (`sessions`) and their refresh tokens (`refresh_tokens`).
enum SessionStore {
    /// Starts a family; `jkt` binds it to a DPoP key (schema 4), `nil` leaves it bearer.
    static func createSession(id: String, memberID: UUID, jkt: String?, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "INSERT INTO sessions (id, member_id, created_at, jkt) VALUES (?, ?, ?, ?)",
            [.text(id), .text(memberID.dbString), .int(Int(now.timeIntervalSince1970)), jkt.map(SQLiteData.text) ?? SQLiteData.null]
        )
    }

    static func insertRefreshToken(
        hash: String, sessionID: String, issuedAt: Date, expiresAt: Date, in transaction: Transaction
    ) async throws(DatabaseError) {
        try await transaction.execute(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at) VALUES (?, ?, ?, ?)",
            [.text(hash), .text(sessionID), .int(Int(issuedAt.timeIntervalSince1970)), .int(Int(expiresAt.timeIntervalSince1970))]
        )
    }

    static func findRefreshToken(hash: String, in transaction: Transaction) async throws(DatabaseError) -> RefreshTokenRecord? {
        guard let row = try await transaction.query(
            """
            SELECT r.session_id, r.expires_at, r.used_at, r.parent_hash, r.withdrawn_at, s.member_id, s.revoked_at, s.jkt
            FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
            WHERE r.token_hash = ?
            """,
            [.text(hash)]
        ).first else { return nil }
        guard let memberID = UUID(uuidString: try row.string("member_id")) else {
            throw DatabaseError(operation: "read member_id", underlying: ColumnError(column: "member_id"))
        }
        return RefreshTokenRecord(
            sessionID: try row.string("session_id"), memberID: memberID, expiresAt: try row.date("expires_at"),
            usedAt: row.optionalInt("used_at").map { Date(timeIntervalSince1970: TimeInterval($0)) },
            parentHash: row.optionalString("parent_hash"), isWithdrawn: row.optionalInt("withdrawn_at") != nil,
            isSessionRevoked: row.optionalInt("revoked_at") != nil, boundKeyThumbprint: row.optionalString("jkt")
        )
    }

    /// Marks a token used (its first use; a later presentation never moves `used_at`).
    static func markUsed(hash: String, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
            [.int(Int(now.timeIntervalSince1970)), .text(hash)]
        )
    }

    /// Links a token just issued to the token whose presentation issued it: the child's
    /// `parent_hash`, and the parent's `replaced_by` (the latest child it issued).
    static func recordChild(_ child: String, of parent: String, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("UPDATE refresh_tokens SET parent_hash = ? WHERE token_hash = ?", [.text(parent), .text(child)])
        try await transaction.execute("UPDATE refresh_tokens SET replaced_by = ? WHERE token_hash = ?", [.text(child), .text(parent)])
    }

    /// How many children `parent` issued, and how many of them were used.
    static func children(of parent: String, in transaction: Transaction) async throws(DatabaseError) -> (issued: Int, used: Int) {
        let row = try await transaction.query(
            "SELECT COUNT(*) AS issued, COUNT(used_at) AS used FROM refresh_tokens WHERE parent_hash = ?",
            [.text(parent)]
        ).first
        return (row?.optionalInt("issued") ?? 0, row?.optionalInt("used") ?? 0)
    }

    /// Withdraws the siblings of `hash` (the other children of `parent`) that are neither used
    /// nor withdrawn: `hash` is the one used first. Presenting one of them later is reuse.
    static func withdrawSiblings(of hash: String, parent: String, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            """
            UPDATE refresh_tokens SET withdrawn_at = ?
            WHERE parent_hash = ? AND token_hash <> ? AND used_at IS NULL AND withdrawn_at IS NULL
            """,
            [.int(Int(now.timeIntervalSince1970)), .text(parent), .text(hash)]
        )
    }

    /// Revokes a session family: its refresh tokens stop working and so do its access tokens.
    static func revoke(sessionID: String, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [.int(Int(now.timeIntervalSince1970)), .text(sessionID)]
        )
    }

    /// The member's current role when the session family is live and belongs to the member; else `nil`.
    static func liveSessionRole(sessionID: String, memberID: UUID, in transaction: Transaction) async throws(DatabaseError) -> Role? {
        guard let row = try await transaction.query(
            """
            SELECT m.role FROM sessions s JOIN members m ON m.id = s.member_id
            WHERE s.id = ? AND s.member_id = ? AND s.revoked_at IS NULL
            """,
            [.text(sessionID), .text(memberID.dbString)]
        ).first else { return nil }
        return Role(rawValue: try row.string("role"))
    }
}
