import Foundation
import SQLiteNIO

/// What the database knows about a presented refresh token.
struct RefreshTokenRecord: Sendable {
    var sessionID: String
    var memberID: UUID
    var expiresAt: Date
    /// When the token was first used (whole seconds); `nil` while unused.
    var usedAt: Date?
    /// The hash of the token that the latest use of this one issued (its child), when known.
    var replacedBy: String?
    /// Whether the token was taken back because its parent was presented again within the reuse
    /// grace period (the response that carried it was presumed lost).
    var isWithdrawn: Bool
    var isSessionRevoked: Bool

    var isUsed: Bool { usedAt != nil }
}

/// SQL for session families (`sessions`) and their refresh tokens (`refresh_tokens`).
enum SessionStore {
    static func createSession(id: String, memberID: UUID, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "INSERT INTO sessions (id, member_id, created_at) VALUES (?, ?, ?)",
            [.text(id), .text(memberID.dbString), .int(Int(now.timeIntervalSince1970))]
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
            SELECT r.session_id, r.expires_at, r.used_at, r.replaced_by, r.withdrawn_at, s.member_id, s.revoked_at
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
            replacedBy: row.optionalString("replaced_by"), isWithdrawn: row.optionalInt("withdrawn_at") != nil,
            isSessionRevoked: row.optionalInt("revoked_at") != nil
        )
    }

    /// Marks a token used and records the child its use issued.
    static func markUsed(hash: String, replacedBy child: String, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "UPDATE refresh_tokens SET used_at = ?, replaced_by = ? WHERE token_hash = ?",
            [.int(Int(now.timeIntervalSince1970)), .text(child), .text(hash)]
        )
    }

    /// Records a new child for an already used token (a retry within the grace period); `used_at`
    /// keeps the first use, so the grace period never grows.
    static func replaceChild(hash: String, with child: String, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("UPDATE refresh_tokens SET replaced_by = ? WHERE token_hash = ?", [.text(child), .text(hash)])
    }

    /// Takes back an unused token: presenting it later counts as reuse.
    static func withdraw(hash: String, now: Date, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute(
            "UPDATE refresh_tokens SET withdrawn_at = ? WHERE token_hash = ? AND withdrawn_at IS NULL",
            [.int(Int(now.timeIntervalSince1970)), .text(hash)]
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
