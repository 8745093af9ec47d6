import Foundation
import SQLiteNIO

/// SQL for `reports`.
enum ReportStore {
    private static let select = """
        SELECT r.id, r.target_type, r.target_id, r.reason, r.created_at, r.reporter_id AS author_id, m.nickname AS author_nickname
        FROM reports r JOIN members m ON m.id = r.reporter_id
        """

    /// Whether the reported content exists.
    static func targetExists(_ type: ReportTargetType, id: Int, in transaction: Transaction) async throws(DatabaseError) -> Bool {
        let table = switch type {
        case .post: "posts"
        case .comment: "comments"
        case .answer: "answers"
        }
        return try await !transaction.query("SELECT 1 AS one FROM \(table) WHERE id = ?", [.int(id)]).isEmpty
    }

    static func insert(
        reporterID: UUID, targetType: ReportTargetType, targetID: Int, reason: String, now: Date, in transaction: Transaction
    ) async throws(DatabaseError) -> ReportDTO {
        let row = try await transaction.query(
            "INSERT INTO reports (reporter_id, target_type, target_id, reason, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [.text(reporterID.dbString), .text(targetType.rawValue), .int(targetID), .text(reason), .int(Int(now.timeIntervalSince1970))]
        )
        let id = try row.first?.int("id") ?? 0
        guard let report = try await transaction.query(select + " WHERE r.id = ?", [.int(id)]).first else {
            throw DatabaseError(operation: "insert report", underlying: ColumnError(column: "id"))
        }
        return try self.report(report, viewer: reporterID)
    }

    /// A page of all reports, newest first.
    static func page(_ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<ReportDTO> {
        let rows = try await transaction.query(
            select + " WHERE r.id < ? ORDER BY r.id DESC LIMIT ?",
            [.int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map { row throws(DatabaseError) in try report(row, viewer: viewer) })
    }

    private static func report(_ row: SQLiteRow, viewer: UUID) throws(DatabaseError) -> ReportDTO {
        let author = try row.author("author")
        guard let type = ReportTargetType(rawValue: try row.string("target_type")) else {
            throw DatabaseError(operation: "read target_type", underlying: ColumnError(column: "target_type"))
        }
        return ReportDTO(
            id: try row.int("id"), targetType: type, targetId: try row.int("target_id"), reason: try row.string("reason"),
            author: author, isMine: author.id == viewer, createdAt: try row.date("created_at")
        )
    }
}
