import Foundation
import SQLiteNIO

/// SQL for `comments`.
enum CommentStore {
    private static let select = """
        SELECT c.id, c.post_id, c.content, c.created_at, c.author_id, m.nickname AS author_nickname
        FROM comments c JOIN members m ON m.id = c.author_id
        """

    static func insert(postID: Int, authorID: UUID, content: String, now: Date, in transaction: Transaction) async throws(DatabaseError) -> CommentDTO {
        let row = try await transaction.query(
            "INSERT INTO comments (post_id, author_id, content, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.int(postID), .text(authorID.dbString), .text(content), .int(Int(now.timeIntervalSince1970))]
        )
        let id = try row.first?.int("id") ?? 0
        guard let comment = try await find(id: id, viewer: authorID, in: transaction) else {
            throw DatabaseError(operation: "insert comment", underlying: ColumnError(column: "id"))
        }
        return comment
    }

    static func find(id: Int, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> CommentDTO? {
        try await transaction.query(select + " WHERE c.id = ?", [.int(id)]).first.map { row throws(DatabaseError) in
            try comment(row, viewer: viewer)
        }
    }

    /// A page of a post's comments, newest first.
    static func page(postID: Int, _ request: PageRequest, viewer: UUID, in transaction: Transaction) async throws(DatabaseError) -> PageDTO<CommentDTO> {
        let rows = try await transaction.query(
            select + " WHERE c.post_id = ? AND c.id < ? ORDER BY c.id DESC LIMIT ?",
            [.int(postID), .int(request.upperBound), .int(request.pageSize + 1)]
        )
        return request.page(from: try rows.map { row throws(DatabaseError) in try comment(row, viewer: viewer) })
    }

    static func delete(id: Int, in transaction: Transaction) async throws(DatabaseError) {
        try await transaction.execute("DELETE FROM comments WHERE id = ?", [.int(id)])
    }

    private static func comment(_ row: SQLiteRow, viewer: UUID) throws(DatabaseError) -> CommentDTO {
        let author = try row.author("author")
        return CommentDTO(
            id: try row.int("id"), postId: try row.int("post_id"), content: try row.string("content"),
            author: author, isMine: author.id == viewer, createdAt: try row.date("created_at")
        )
    }
}
