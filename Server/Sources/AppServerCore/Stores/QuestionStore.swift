import Foundation
import SQLiteNIO

/// SQL for `questions`.
enum QuestionStore {
    private static func select(where condition: String) -> String {
        """
        SELECT q.id, q.content, q.created_at,
               (SELECT COUNT(*) FROM answers a WHERE a.question_id = q.id) AS answer_count,
               EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id AND a.author_id = ?) AS is_answered
        FROM questions q WHERE \(condition)
        """
    }

    /// A page of questions, newest first.
    static func page(_ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<QuestionDTO> {
        let rows = try await transaction.query(
            select(where: "q.id < ?") + " ORDER BY q.id DESC LIMIT ?",
            [.text(viewer.dbString), .int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map(question))
    }

    /// Today's question: days since 1970 (UTC) modulo the number of questions, in id order.
    static func today(now: Date, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> QuestionDTO? {
        let count = try await transaction.query("SELECT COUNT(*) AS n FROM questions").first?.int("n") ?? 0
        guard count > 0 else { return nil }
        let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        let index = ((day % count) + count) % count
        let rows = try await transaction.query(
            select(where: "1") + " ORDER BY q.id ASC LIMIT 1 OFFSET ?",
            [.text(viewer.dbString), .int(index)]
        )
        return try rows.first.map(question)
    }

    /// Whether the question exists.
    static func exists(id: Int, in transaction: Transaction) async throws(DatabaseError) -> Bool {
        try await !transaction.query("SELECT 1 AS one FROM questions WHERE id = ?", [.int(id)]).isEmpty
    }

    private static func question(_ row: SQLiteRow) throws(DatabaseError) -> QuestionDTO {
        QuestionDTO(
            id: try row.int("id"), content: try row.string("content"), answerCount: try row.int("answer_count"),
            isAnswered: try row.bool("is_answered"), createdAt: try row.date("created_at")
        )
    }
}
