import Foundation
import SQLiteNIO

/// SQL for `answers`.
enum AnswerStore {
    private static let select = """
        SELECT a.id, a.question_id, a.content, a.created_at, a.author_id, m.nickname AS author_nickname
        FROM answers a JOIN members m ON m.id = a.author_id
        """

    static func insert(questionID: Int, authorID: UUID, content: String, now: Date, in transaction: Transaction) async throws(DatabaseError) -> AnswerDTO {
        let row = try await transaction.query(
            "INSERT INTO answers (question_id, author_id, content, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.int(questionID), .text(authorID.dbString), .text(content), .int(Int(now.timeIntervalSince1970))]
        )
        let id = try row.first?.int("id") ?? 0
        guard let answer = try await find(id: id, viewer: authorID, in: transaction) else {
            throw DatabaseError(operation: "insert answer", underlying: ColumnError(column: "id"))
        }
        return answer
    }

    static func find(id: Int, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> AnswerDTO? {
        try await transaction.query(select + " WHERE a.id = ?", [.int(id)]).first.map { row throws(DatabaseError) in
            try answer(row, viewer: viewer)
        }
    }

    /// A page of a question's answers, newest first.
    static func page(questionID: Int, _ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<AnswerDTO> {
        let rows = try await transaction.query(
            select + " WHERE a.question_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?",
            [.int(questionID), .int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map { row throws(DatabaseError) in try answer(row, viewer: viewer) })
    }

    /// A page of the viewer's own answers, newest first.
    static func pageOfMine(_ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<AnswerDTO> {
        let rows = try await transaction.query(
            select + " WHERE a.author_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?",
            [.text(viewer.dbString), .int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map { row throws(DatabaseError) in try answer(row, viewer: viewer) })
    }

    static func delete(id: Int, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("DELETE FROM answers WHERE id = ?", [.int(id)])
    }

    private static func answer(_ row: SQLiteRow, viewer: UUID) throws(DatabaseError) -> AnswerDTO {
        let author = try row.author("author")
        return AnswerDTO(
            id: try row.int("id"), questionId: try row.int("question_id"), content: try row.string("content"),
            author: author, isMine: author.id == viewer, createdAt: try row.date("created_at")
        )
    }
}
